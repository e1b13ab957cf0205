import { createHash } from 'node:crypto'
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
    /** When true (default), verify rejects a request without a plausible, human-like drag track. */
    requireTrack: env.get('CAPTCHA_REQUIRE_TRACK', true),
    /**
     * Proof of work (altcha-lib, SHA-256): the solver tries on average maxNumber / 2 numbers.
     * 50,000 took 0.2-1.2 s (0.6 s on average) of one core in Node 24 here, about what a browser
     * spends while the person drags.
     */
    powMaxNumber: env.get('CAPTCHA_POW_MAX_NUMBER', 50_000),
    /** The HMAC key of the proof-of-work challenges, derived from APP_KEY (never sent). */
    powKey: createHash('sha256')
      .update(`captcha-pow:${env.get('APP_KEY').release()}`)
      .digest('hex'),
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
