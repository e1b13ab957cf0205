import type { HttpContext } from '@adonisjs/core/http'
import { httpRequests } from '#services/operations/metrics'

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
  ctx.logger.info(
    {
      method,
      route,
      status,
      ms: Math.round(seconds * 10_000) / 10,
      requestId: ctx.request.id(),
      userId: ctx.auth?.use('jwt').userId,
    },
    'request'
  )
}
