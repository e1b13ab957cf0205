import type { IncomingMessage, ServerResponse } from 'node:http'
import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/core/http'
import proxyAddr from 'proxy-addr'
import { trustedProxyList } from '#start/env'
import { serializeJSON } from '#core/compiled_json'

export const appKey = env.get('APP_KEY')

export const http = defineConfig({
  // Every request gets an id (x-request-id); the error handler logs database failures with it.
  generateRequestId: true,
  allowMethodSpoofing: false,
  // X-Forwarded-For is believed only from the proxies listed in TRUSTED_PROXIES (default: none),
  // so a client cannot pick its own rate-limit key (docs/operations.md, "Behind a proxy"; nginx
  // on this host: docs/deploy.md, "Reverse proxy with TLS").
  trustProxy: proxyAddr.compile(trustedProxyList(env.get('TRUSTED_PROXIES'))),
  // A URL with malformed percent-encoding never reaches the router: answer it in the error contract.
  onBadUrl(_req: IncomingMessage, res: ServerResponse) {
    res.writeHead(400, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
    })
    res.end(JSON.stringify({ errors: [{ code: 'E_BAD_REQUEST', message: 'Malformed URL' }] }))
  },
  useAsyncLocalStorage: false,
  // JSON bodies by the stringifier compiled from their route's contract (app/core/compiled_json.ts).
  serializeJSON,
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction,
    sameSite: 'lax',
  },
})
