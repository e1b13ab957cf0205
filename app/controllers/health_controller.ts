import type { HttpContext } from '@adonisjs/core/http'
import env from '#start/env'
import { healthChecks, markHealthy, recentlyHealthy } from '#start/health'
import { contract } from '#openapi/contract'
import { s } from '#openapi/schema'
import { presentsSecret } from '#core/operations/monitoring_secret'

/** Whether the caller presents HEALTH_SECRET (x-monitoring-secret). */
const isMonitor = (request: HttpContext['request']) =>
  presentsSecret(request, env.get('HEALTH_SECRET'))

/** The answer of a healthy check without its report: text written once, sent as JSON. */
const HEALTHY = JSON.stringify({ data: { status: 'ok' } })

export default class HealthController {
  static contract = contract({
    live: {
      summary: 'Liveness: the process answers (no I/O)',
      raw: { schema: s.object({ data: s.object({ status: s.literal('ok') }) }) },
    },
    ready: {
      summary: 'Readiness: database, replica and Redis when configured, not draining',
      description: 'The report only for callers sending `x-monitoring-secret: <HEALTH_SECRET>`.',
      raw: {
        schema: s.object({
          data: s.object({ status: s.literal('ok'), report: s.record() }, ['report']),
        }),
      },
      errors: [503],
    },
  })

  /** Liveness: the process answers. No I/O, so a database outage never restarts the instance. */
  live({ response }: HttpContext) {
    response.header('Cache-Control', 'no-store')
    return { data: { status: 'ok' } }
  }

  /**
   * Readiness: 200 only when every check passes (database, the replica and Redis when
   * configured, not draining), 503 in the error contract otherwise. The report (check names,
   * messages, latencies) only for a monitor presenting HEALTH_SECRET: it names the topology.
   * Other probes reuse a healthy run of the last second (start/health.ts, recentlyHealthy).
   */
  async ready({ request, response }: HttpContext) {
    response.header('Cache-Control', 'no-store')
    const monitor = isMonitor(request)
    if (!monitor && recentlyHealthy()) {
      response.header('Content-Type', 'application/json; charset=utf-8')
      return response.ok(HEALTHY)
    }
    const checks = await healthChecks()
    const report = await checks.run()
    const details = monitor ? { report } : {}
    if (report.isHealthy) {
      markHealthy()
      return response.ok({ data: { status: 'ok', ...details } })
    }
    return response.serviceUnavailable({
      errors: [{ code: 'E_UNAVAILABLE', message: 'The service is temporarily unavailable' }],
      ...details,
    })
  }
}
