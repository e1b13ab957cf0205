import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer, request, type Server } from 'node:http'
import { extname, join, normalize } from 'node:path'
import { pipeline } from 'node:stream'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
}

export type ConsoleServer = {
  url: string
  port: number
  /** The same server under another host name (one that Chromium maps to the loopback). */
  urlAs: (host: string) => string
  close: () => Promise<void>
}

/**
 * Serves the built console (console/dist) and forwards /api to the app under test, as a
 * deployment would (one origin, so no CORS). Unknown paths get index.html (the SPA's routes).
 */
export async function startConsoleServer(options: {
  distDir: string
  apiUrl: string
  /** The loopback source address of a forwarded request (default: the system's). */
  sourceOf?: (headers: import('node:http').IncomingHttpHeaders) => string | undefined
}): Promise<ConsoleServer> {
  const api = new URL(options.apiUrl)
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://console')
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      // A connection per request (no keep-alive pool): a reused socket that the app closes at
      // its idle timeout would reset mid-test.
      const upstream = request(
        {
          agent: false,
          localAddress: options.sourceOf?.(req.headers),
          hostname: api.hostname,
          port: api.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: api.host },
        },
        (answer) => {
          if (res.destroyed) return answer.destroy() // the browser went away (a page left)
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          pipeline(answer, res, () => {}) // an aborted answer ends the browser's request too
        }
      )
      upstream.on('error', () => {
        // Cut off mid-answer: end the browser's request too, so it fails instead of waiting.
        if (res.headersSent) return res.destroy()
        res.writeHead(502, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ errors: [{ code: 'E_UNAVAILABLE', message: 'API unreachable' }] }))
      })
      req.pipe(upstream)
      return
    }
    const relative = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '')
    let file = join(options.distDir, relative)
    if (!file.startsWith(options.distDir)) file = join(options.distDir, 'index.html')
    const info = await stat(file).catch(() => null)
    if (!info || !info.isFile()) file = join(options.distDir, 'index.html')
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
    createReadStream(file).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    urlAs: (host) => `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
