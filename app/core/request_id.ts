import type { IncomingMessage } from 'node:http'
import app from '@adonisjs/core/services/app'

/**
 * The request id stored in audit rows and logged with every error: a client's X-Request-Id is
 * kept only when it is well formed AND arrives from a proxy listed in TRUSTED_PROXIES (the same
 * trust as X-Forwarded-For, config/app.ts); otherwise the header is dropped before AdonisJS reads
 * it, so the framework generates one (`generateRequestId`). A direct client so cannot plant an
 * id (or a log-forging string) in the rows administrators read, or make two requests share one.
 */
const WELL_FORMED = /^[A-Za-z0-9._-]{8,64}$/

type Trust = (address: string, hop: number) => boolean
let trust: Trust | undefined

export function sanitizeRequestId(req: IncomingMessage) {
  const supplied = req.headers['x-request-id']
  if (supplied === undefined) return
  // The app's own compiled TRUSTED_PROXIES check, read once the app has booted.
  trust ??= app.config.get<{ trustProxy: Trust }>('app.http').trustProxy
  const peer = req.socket.remoteAddress
  if (typeof supplied === 'string' && WELL_FORMED.test(supplied) && peer && trust(peer, 0)) return
  delete req.headers['x-request-id']
}
