import type { HttpContext } from '@adonisjs/core/http'
import env from '#start/env'
import { notFound } from '#exceptions/api_exception'
import { contract } from '#openapi/contract'
import { s } from '#openapi/schema'
import { exposition } from '#core/operations/metrics'
import { presentsSecret } from '#core/operations/monitoring_secret'

export default class MetricsController {
  static contract = contract({
    show: {
      summary: 'Prometheus metrics of this instance',
      description:
        'Only for callers sending `x-monitoring-secret: <METRICS_SECRET>`; anyone else, and ' +
        'everyone when METRICS_SECRET is not set, gets the 404 of an unknown route.',
      raw: { schema: s.string(), contentType: 'text/plain' },
      security: [{ monitoringSecret: [] }],
      errors: [404],
    },
  })

  /** The text exposition format; 404 (as an unknown route) without the secret. */
  async show({ request, response }: HttpContext) {
    const scrape = presentsSecret(request, env.get('METRICS_SECRET')) ? await exposition() : null
    if (!scrape) throw notFound()
    response.header('Content-Type', scrape.contentType)
    response.header('Cache-Control', 'no-store')
    return response.send(scrape.text)
  }
}
