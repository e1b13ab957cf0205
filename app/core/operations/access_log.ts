import type { HttpContext } from '@adonisjs/core/http'
import { httpRequests } from '#core/operations/metrics'
import { OncePerMinute } from '#core/per_minute'
import { addressKey } from '#core/address_key'

/**
 * Probes answered as expected are counted in the metrics but not logged: a load balancer's
 * readiness probe and a Prometheus scrape every few seconds would bury the requests people make.
 * A probe answered 4xx/5xx (not ready, a wrong monitoring secret) is logged like any request.
 */
const QUIET_WHEN_OK = new Set([
  '/api/health',
  '/api/health/live',
  '/api/health/ready',
  '/api/metrics',
])

/**
 * Rate-limit refusals (429) are logged once per (method, route, client address) per minute, the
 * key's next line carrying `repeated`: the limiter has already decided that address is flooding,
 * and a line per refused request would hand the flood on to the log (its disk, its CPU). The
 * metrics still count every one.
 */
const refusalLines = new OncePerMinute('access-log-refusals')

/**
 * One answered request (its response's `close`, app/middleware/access_log_middleware.ts, with the
 * seconds since the request entered the middleware): observed in the request histogram and
 * written as ONE access-log line, info level, on the request's logger (which carries request_id).
 */
export function requestCompleted(ctx: HttpContext, seconds: number) {
  try {
    observeAndLog(ctx, seconds)
  } catch (error) {
    // Called from an event listener: a throw here would crash the process.
    ctx.logger.error({ err: error }, 'access log failed')
  }
}

function observeAndLog(ctx: HttpContext, seconds: number) {
  const route = ctx.route?.pattern ?? 'unmatched'
  const method = ctx.request.method()
  const status = ctx.response.response.statusCode
  httpRequests.observe({ method, route, status }, seconds)
  if (status < 400 && QUIET_WHEN_OK.has(route)) return
  if (!ctx.logger.isLevelEnabled('info')) return
  let repeated: number | null | undefined
  if (status === 429) {
    repeated = refusalLines.take(`${method}\n${route}\n${addressKey(ctx.request.ip())}`)
    if (repeated === null) return
  }
  ctx.logger.info(
    {
      method,
      route,
      status,
      ms: Math.round(seconds * 10_000) / 10,
      userId: ctx.auth?.use('jwt').userId,
      repeated: repeated || undefined,
    },
    'request'
  )
}
