import type { IncomingMessage, ServerResponse } from 'node:http'
import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/core/http'

export const appKey = env.get('APP_KEY')

export const http = defineConfig({
  // Every request gets an id (x-request-id); the error handler logs database failures with it.
  generateRequestId: true,
  allowMethodSpoofing: false,
  // A URL with malformed percent-encoding never reaches the router: answer it in the error contract.
  onBadUrl(_req: IncomingMessage, res: ServerResponse) {
    res.writeHead(400, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
    })
    res.end(JSON.stringify({ errors: [{ code: 'E_BAD_REQUEST', message: 'Malformed URL' }] }))
  },
  useAsyncLocalStorage: false,
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction,
    sameSite: 'lax',
  },
})
