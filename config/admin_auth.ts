import env from '#start/env'
import string from '@adonisjs/core/helpers/string'

/**
 * Settings of the administrator login: JWT, slider captcha and rate limits.
 * Numbers not set through the environment are the defaults documented in .env.example.
 */
const adminAuthConfig = {
  jwt: {
    secret: env.get('JWT_SECRET'),
    /** Lifetime in seconds. */
    ttl: string.seconds.parse(env.get('JWT_TTL', '2h')),
    issuer: env.get('JWT_ISSUER', 'adonis-rbac'),
    audience: env.get('JWT_AUDIENCE', 'adonis-rbac-admin'),
    /** Authorization headers longer than this are rejected before any crypto runs. */
    maxHeaderLength: 2048,
  },
  captcha: {
    /** Seconds a challenge stays valid. */
    challengeTtl: 120,
    /** Seconds the one-time login credential stays valid. */
    tokenTtl: 120,
    /** Accepted distance, in pixels, between the dropped x and the answer. */
    tolerance: 4,
    /** When true, verify rejects a request without a drag track. */
    requireTrack: env.get('CAPTCHA_REQUIRE_TRACK', false),
  },
  limits: {
    /** Captcha fetches + verifies per IP per minute. */
    captchaPerMinute: env.get('LIMIT_CAPTCHA_PER_MINUTE', 30),
    /** Failed logins per IP in `window` before a block. */
    loginFailuresPerIp: env.get('LIMIT_LOGIN_FAILURES_PER_IP', 20),
    /** Failed logins per account in `window` before a block. */
    loginFailuresPerAccount: env.get('LIMIT_LOGIN_FAILURES_PER_ACCOUNT', 5),
    window: '15 mins',
    /** First block; each further refused attempt during a block doubles it, up to `maxBlock`. */
    block: '15 mins',
    maxBlock: '24 hours',
  },
}

export default adminAuthConfig
