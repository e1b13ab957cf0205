/*
| The Node HTTP server behind AdonisJS (used by bin/server.ts and the test runner).
| Requests Node rejects before AdonisJS sees them (oversized headers, malformed HTTP) still get an
| answer in the API's error contract instead of an empty body. A client's X-Request-Id is kept only
| when well formed and from a trusted proxy (app/core/request_id.ts).
*/
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { sanitizeRequestId } from '#core/request_id'

const contractResponse = (status: number, reason: string, code: string, message: string) => {
  const body = JSON.stringify({ errors: [{ code, message }] })
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  )
}

export function createApiServer(handler: (req: IncomingMessage, res: ServerResponse) => any) {
  // Node 24.22 cuts small buffers from a 64 KiB slab (8 KiB before; nodejs/node#63597). pg takes
  // 256 bytes of it per statement, so under load a slab outlived two scavenges and was promoted:
  // 64 KiB of dead external memory until a full collection (docs/performance.md, "What fills the
  // old space under load"). An 8 KiB slab is spent before the next scavenge.
  Buffer.poolSize = 8 * 1024
  const server = createServer({ maxHeaderSize: 16 * 1024, requestTimeout: 30_000 }, (req, res) => {
    // Before AdonisJS reads it: a client's X-Request-Id only through a trusted proxy.
    sanitizeRequestId(req)
    return handler(req, res)
  })
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy()
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
    socket.end(
      tooLarge
        ? contractResponse(
            431,
            'Request Header Fields Too Large',
            'E_HEADERS_TOO_LARGE',
            'Request headers too large'
          )
        : contractResponse(400, 'Bad Request', 'E_BAD_REQUEST', 'Malformed HTTP request')
    )
  })
  return server
}
