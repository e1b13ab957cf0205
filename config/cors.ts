import env from '#start/env'
import { defineConfig } from '@adonisjs/cors'

// Only the admin SPA origins listed in CORS_ORIGINS may call the API from a browser. The JWT
// travels in a header, never in a cookie, so credentials are not needed. With none listed the
// middleware is not installed at all (start/kernel.ts).
export const corsOrigins = (env.get('CORS_ORIGINS') ?? '')
  .split(',')
  .map((origin) => origin.trim())
  .filter(Boolean)

const corsConfig = defineConfig({
  enabled: true,
  origin: corsOrigins,
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  headers: true,
  exposeHeaders: [
    'retry-after',
    'ratelimit-limit',
    'ratelimit-remaining',
    'ratelimit-reset',
    'x-request-id',
    'etag',
  ],
  credentials: false,
  maxAge: 600,
})

export default corsConfig
