import { request as httpRequest } from 'node:http'
import env from '#start/env'

export type Reply = { status: number; body: any; headers: Record<string, unknown> }

/**
 * A JSON request from a chosen loopback address (the socket's, not a header), to the test server
 * or to another app process (`port`).
 */
export function sendFrom(
  from: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; port?: number } = {}
): Promise<Reply> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: options.port ? '127.0.0.1' : env.get('HOST'),
        port: options.port ?? env.get('PORT'),
        method,
        path,
        localAddress: from,
        headers: {
          'content-type': 'application/json',
          ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => {
          // A throw here would escape the promise: the test would wait for its timeout instead.
          try {
            resolve({
              status: res.statusCode!,
              body: text ? JSON.parse(text) : null,
              headers: res.headers,
            })
          } catch {
            reject(
              new Error(`${method} ${path}: ${res.statusCode}, not JSON: ${text.slice(0, 200)}`)
            )
          }
        })
      }
    )
    req.on('error', reject)
    req.end(payload)
  })
}
