/*
| The benchmarks' HTTP client: one JSON request over node:http, from a chosen loopback source
| address (`from`: the socket's, so per-address limits apply as to separate clients), on a fresh
| connection, with its wall time. Used by run.ts, front_door.ts and client.ts.
*/
import { request as httpRequest } from 'node:http'
import { createServer } from 'node:net'

export type Reply = {
  status: number
  body: any
  headers: Record<string, string | string[] | undefined>
  ms: number
}
export type SendOptions = { body?: unknown; headers?: Record<string, string>; from?: string }

/** `base` is `http://host:port`. A body is sent as JSON; a JSON answer is parsed. */
export function send(
  base: string,
  method: string,
  path: string,
  options: SendOptions = {}
): Promise<Reply> {
  const url = new URL(base)
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        localAddress: options.from,
        agent: false,
        headers: {
          'content-type': 'application/json',
          ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => {
          let body: unknown = text || null
          if (text && String(res.headers['content-type']).includes('json')) body = JSON.parse(text)
          resolve({
            status: res.statusCode!,
            body,
            headers: res.headers,
            ms: performance.now() - start,
          })
        })
      }
    )
    req.on('error', reject)
    req.end(payload)
  })
}

/** Waits until `path` answers 200 (a starting server), at most `timeoutMs`. */
export async function waitUntilUp(base: string, path: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      if ((await send(base, 'GET', path)).status === 200) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${base}${path} did not answer 200 within ${timeoutMs} ms`)
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}
