/*
| Environment variables are validated here, at boot: the app refuses to start on a bad value.
| Every variable is documented in .env.example.
*/
import { Env } from '@adonisjs/core/env'
import proxyAddr from 'proxy-addr'

/** The languages `node ace db:seed` names things in (SEED_LOCALE; database/seed_locale.ts). */
export const SEED_LOCALES = ['en', 'zh-CN'] as const

/** The TRUSTED_PROXIES list: comma-separated, blanks ignored. */
export const trustedProxyList = (value?: string) =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)

/**
 * HS256 is only as strong as its key: refuse to boot with a missing or short JWT_SECRET rather
 * than sign tokens an attacker could brute-force.
 */
function jwtSecret(key: string, value?: string): string {
  if (!value || Buffer.byteLength(value, 'utf8') < 32) {
    throw new Error(
      `Invalid value for "${key}": it must be at least 32 bytes of random data ` +
        `(generate one with: node -e "console.log(require('crypto').randomBytes(48).toString('base64url'))")`
    )
  }
  return value
}

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum(['development', 'production', 'test'] as const),
  PORT: Env.schema.number(),
  HOST: Env.schema.string({ format: 'host' }),
  APP_KEY: Env.schema.secret(),
  LOG_LEVEL: Env.schema.enum([
    'fatal',
    'error',
    'warn',
    'info',
    'debug',
    'trace',
    'silent',
  ] as const),

  /*
  | Admin JWT
  */
  JWT_SECRET: jwtSecret,
  JWT_TTL: Env.schema.string.optional(),
  JWT_ISSUER: Env.schema.string.optional(),
  JWT_AUDIENCE: Env.schema.string.optional(),

  /*
  | Database: SQLite (embedded default) or PostgreSQL (production)
  */
  DB_CONNECTION: Env.schema.enum.optional(['sqlite', 'pg'] as const),
  SQLITE_FILE: Env.schema.string.optional(),
  DB_QUERY_EVENTS: Env.schema.boolean.optional(),
  PG_HOST: Env.schema.string.optional({ format: 'host' }),
  PG_PORT: Env.schema.number.optional(),
  PG_USER: Env.schema.string.optional(),
  PG_PASSWORD: Env.schema.string.optional(),
  PG_DB_NAME: Env.schema.string.optional(),
  PG_POOL_MAX: Env.schema.number.optional(),
  /* Named prepared statements (off behind PgBouncer < 1.21 in transaction mode) */
  PG_PREPARED_STATEMENTS: Env.schema.boolean.optional(),
  /* The public module's own pool and statement timeout (docs/public-modules.md) */
  PUBLIC_POOL_MAX: Env.schema.number.optional(),
  /* A streaming replica for the public module's reads only (docs/operations.md, "Running several instances") */
  PG_READ_HOST: Env.schema.string.optional({ format: 'host' }),
  PG_READ_PORT: Env.schema.number.optional(),
  PUBLIC_STATEMENT_TIMEOUT_MS: Env.schema.number.optional(),
  LIMIT_SEARCH_PER_MINUTE: Env.schema.number.optional(),
  /* Keyword searches running / waiting at once on this instance (app/services/public/search_gate.ts) */
  SEARCH_CONCURRENCY: Env.schema.number.optional(),
  SEARCH_QUEUE_MAX: Env.schema.number.optional(),
  /* Places (running + waiting) one client address may hold; default max(2, ceil(SEARCH_QUEUE_MAX / 8)) */
  SEARCH_QUEUE_PER_ADDRESS: Env.schema.number.optional(),

  /*
  | CORS: comma-separated origins of the admin SPA (empty: no cross-origin access)
  */
  CORS_ORIGINS: Env.schema.string.optional(),

  /*
  | Rate limits and captcha
  */
  LIMITER_STORE: Env.schema.enum.optional(['database', 'redis', 'memory'] as const),
  /* Redis, only read when LIMITER_STORE=redis (config/redis.ts) */
  REDIS_HOST: Env.schema.string.optional({ format: 'host' }),
  REDIS_PORT: Env.schema.number.optional(),
  REDIS_PASSWORD: Env.schema.string.optional(),
  REDIS_DB: Env.schema.number.optional(),
  LIMIT_CAPTCHA_PER_MINUTE: Env.schema.number.optional(),
  LIMIT_LOGIN_FAILURES_PER_IP: Env.schema.number.optional(),
  LIMIT_LOGIN_FAILURES_PER_ACCOUNT: Env.schema.number.optional(),
  LOGIN_ACCOUNT_CAP: Env.schema.number.optional(),
  CAPTCHA_REQUIRE_TRACK: Env.schema.boolean.optional(),
  CAPTCHA_POW_COST: Env.schema.number.optional(),
  CAPTCHA_POW_BLOCK_SIZE: Env.schema.number.optional(),
  CAPTCHA_POW_PARTS: Env.schema.number.optional(),
  HASH_CONCURRENCY: Env.schema.number.optional(),
  HASH_QUEUE_MAX: Env.schema.number.optional(),
  /* Test runs only (NODE_ENV=test): argon2id memory in KiB for account passwords (config/hash.ts). */
  TEST_ARGON2_MEMORY_KIB: Env.schema.number.optional(),
  /* Who must enrol a second factor (TOTP) before anything else: none | super_admin | all */
  AUTH_REQUIRE_2FA: Env.schema.enum.optional(['none', 'super_admin', 'all'] as const),
  AUTH_PASSKEY_REQUIRED: Env.schema.enum.optional(['none', 'super_admin', 'all'] as const),
  /*
  | Passkeys (WebAuthn): the console's origin and the domain passkeys are bound to. Defaults: the
  | origin of APP_URL (else http://localhost:5173) and its host; config/admin_auth.ts refuses to
  | boot when RP_ORIGIN's host is not RP_ID or below it, or an origin other than localhost is not https.
  */
  RP_ID: Env.schema.string.optional({ format: 'host' }),
  RP_ORIGIN: Env.schema.string.optional({ format: 'url', tld: false }),
  /* Password lifecycle: days a password lives (0 = forever), passwords remembered (docs/architecture.md) */
  PASSWORD_MAX_AGE_DAYS: Env.schema.number.optional(),
  PASSWORD_HISTORY: Env.schema.number.optional(),
  /*
  | Proxies whose X-Forwarded-For is believed (addresses or CIDRs, comma-separated; also
  | proxy-addr's names loopback/linklocal/uniquelocal). Empty: trust none, the client address is
  | the socket's. Refused at boot when an entry does not parse.
  */
  TRUSTED_PROXIES: (name: string, value?: string) => {
    try {
      proxyAddr.compile(trustedProxyList(value))
    } catch (error) {
      throw new Error(`${name}: ${(error as Error).message}`)
    }
    return value
  },

  /*
  | Operations: the readiness report's details for monitors presenting this secret
  | (x-monitoring-secret header); SIGTERM drain (docs/operations.md, "Running several instances")
  */
  HEALTH_SECRET: Env.schema.string.optional(),
  /* GET /api/metrics only for x-monitoring-secret: <METRICS_SECRET>; unset: always 404 */
  METRICS_SECRET: Env.schema.string.optional(),
  SHUTDOWN_DELAY_MS: Env.schema.number.optional(),
  SHUTDOWN_TIMEOUT_MS: Env.schema.number.optional(),

  /*
  | The API contract: GET /api/openapi.json and the reference page GET /api/docs.
  | Default: on, except with NODE_ENV=production (docs/architecture.md, "API contract").
  */
  OPENAPI_ENABLED: Env.schema.boolean.optional(),

  /*
  | Email (config/mail.ts, docs/email.md): without SMTP_HOST the mail routes answer 404, except in
  | development, where mails are written to the log. APP_URL: the console's origin, for links.
  */
  SMTP_HOST: Env.schema.string.optional({ format: 'host' }),
  SMTP_PORT: Env.schema.number.optional(),
  SMTP_USERNAME: Env.schema.string.optional(),
  SMTP_PASSWORD: Env.schema.string.optional(),
  /* `Name <address>` or an address */
  MAIL_FROM: Env.schema.string.optional(),
  APP_URL: Env.schema.string.optional({ format: 'url', tld: false }),

  /*
  | First administrator created by `node ace db:seed`
  */
  ADMIN_ACCOUNT: Env.schema.string.optional(),
  SEED_LOCALE: Env.schema.enum.optional(SEED_LOCALES),
  ADMIN_PASSWORD: Env.schema.string.optional(),
})
