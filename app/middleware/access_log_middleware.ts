import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { requestCompleted } from '#services/operations/access_log'

/**
 * Every request, matched or not, is observed in the metrics and the access log once its
 * response closes (written, or the client gone): docs/operations.md, "Access log". A plain
 * `close` listener instead of AdonisJS's `http:request_completed` event, whose async emitter and
 * on-finished listeners cost every request more than the log line itself.
 */
export default class AccessLogMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    const started = performance.now()
    ctx.response.response.once('close', () =>
      requestCompleted(ctx, (performance.now() - started) / 1000)
    )
    return next()
  }
}
