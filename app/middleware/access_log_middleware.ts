import type { ServerResponse } from 'node:http'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { requestCompleted } from '#core/operations/access_log'

/**
 * Headers every answer carries: no MIME sniffing, no Referer leaving the API, no framing of any
 * answer (clickjacking). In the framework's header map, which it hands to Node's writeHead whole
 * (any answer it writes: a body, a stream, a file, an error), not on the raw response: one raw
 * setHeader sends every header of the answer through Node's slow path (each one set, then
 * checked again). Names in lower case, as the map keeps them.
 */
const SECURITY_HEADERS: [string, string][] = [
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'no-referrer'],
  ['content-security-policy', "frame-ancestors 'none'"],
]

/**
 * Every request, matched or not, gets SECURITY_HEADERS (here, in the one middleware every request
 * already runs: another would cost each request ~0.01 ms) and is observed in the metrics and the access log once its
 * response closes (written, or the client gone): docs/operations.md, "Access log". One plain
 * `close` listener (shared by every request) instead of AdonisJS's `http:request_completed` event, whose async emitter and
 * on-finished listeners cost every request more than the log line itself.
 */
export default class AccessLogMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    const response = ctx.response.response as Observed
    response[STARTED] = performance.now()
    response[CONTEXT] = ctx
    for (const SECURITY_HEADER of SECURITY_HEADERS) {
      ctx.response.header(SECURITY_HEADER[0], SECURITY_HEADER[1])
    }
    response.on('close', onClose)
    return next()
  }
}

/** The request's context and start, on its response: one listener for all, no closure each. */
const STARTED = Symbol('accessLog.started')
const CONTEXT = Symbol('accessLog.context')
type Observed = ServerResponse & { [STARTED]: number; [CONTEXT]: HttpContext }

function onClose(this: Observed) {
  requestCompleted(this[CONTEXT], (performance.now() - this[STARTED]) / 1000)
}
