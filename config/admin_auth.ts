import { createHash } from 'node:crypto'
import env from '#start/env'
import string from '@adonisjs/core/helpers/string'

/**
 * The WebAuthn relying party (docs/front-door.md, "Passkeys"): the origin the console runs on
 * (RP_ORIGIN; default the origin of APP_URL, else Vite's http://localhost:5173) and the domain
 * passkeys belong to (RP_ID; default that origin's host). Checked here, at boot: browsers refuse
 * an RP ID that is not the origin's host or a parent domain of it, and WebAuthn outside https
 * (except on localhost), so such settings would only fail at the first registration. A default
 * taken from an http APP_URL is not refused (a deployment without passkeys keeps booting).
 */
export function relyingParty(rpId?: string, rpOrigin?: string) {
  const raw = rpOrigin || env.get('APP_URL') || 'http://localhost:5173'
  let origin: URL
  try {
    origin = new URL(raw)
  } catch {
    throw new Error(`Invalid value for "RP_ORIGIN": "${raw}" is not a URL`)
  }
  const host = origin.hostname.toLowerCase()
  const id = (rpId || host).toLowerCase()
  if (host !== id && !host.endsWith(`.${id}`)) {
    throw new Error(
      `Invalid value for "RP_ID": the host of RP_ORIGIN (${host}) must be "${id}" or a ` +
        `subdomain of it (passkeys are bound to RP_ID; the browser runs on RP_ORIGIN)`
    )
  }
  const local = host === 'localhost' || host.endsWith('.localhost')
  if (rpOrigin && origin.protocol !== 'https:' && !(local && origin.protocol === 'http:')) {
    throw new Error(
      `Invalid value for "RP_ORIGIN": "${raw}" must be https (http only on localhost): ` +
        'browsers offer passkeys in secure contexts only'
    )
  }
  return { rpId: id, origin: origin.origin }
}

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
     * Proof of work (altcha-lib v2, scrypt; docs/front-door.md has the measurements). One
     * evaluation is scrypt(N = powCost, r = powBlockSize, p = 1): 2 MiB of memory at the default.
     * Level 0 is `powParts` parts of 16 evaluations on average each (proof_of_work.ts: 192, about
     * 1 s of one core natively here); levels 1-3 x2, x4, x16; verifying costs 1 evaluation a part.
     */
    powCost: env.get('CAPTCHA_POW_COST', 2048),
    powBlockSize: env.get('CAPTCHA_POW_BLOCK_SIZE', 8),
    powParts: Math.max(1, Math.min(32, env.get('CAPTCHA_POW_PARTS', 12))),
    /** Seconds a proof-of-work challenge stays valid (solving + drawing the slider). */
    powTtl: 300,
    /** The HMAC key of the proof-of-work challenges, derived from APP_KEY (never sent). */
    powKey: createHash('sha256')
      .update(`captcha-pow:${env.get('APP_KEY').release()}`)
      .digest('hex'),
  },
  twoFactor: {
    /** Accounts that must enrol before anything else (app/auth/account_requirements.ts). */
    required: env.get('AUTH_REQUIRE_2FA', 'none'),
    /** The issuer shown by authenticator apps. */
    issuer: env.get('JWT_ISSUER', 'adonis-rbac'),
    /** Seconds an mfaToken (between the password and the code) stays valid. */
    mfaTokenTtl: 300,
    /** Wrong codes an mfaToken survives. */
    mfaTokenMaxFailures: 5,
  },
  /** Passkeys (app/auth/passkeys.ts); `rpId` and `origin` checked at boot (relyingParty above). */
  passkeys: {
    ...relyingParty(env.get('RP_ID'), env.get('RP_ORIGIN')),
    /** The name authenticators show beside the account. */
    rpName: env.get('JWT_ISSUER', 'adonis-rbac'),
    /** Seconds a WebAuthn challenge stays valid (and the browser's timeout). */
    challengeTtl: 300,
    /**
     * Accounts that, once they hold a passkey, sign in only with one (AUTH_PASSKEY_REQUIRED):
     * none, super_admin (holders of the enabled super_admin role) or all.
     */
    required: env.get('AUTH_PASSKEY_REQUIRED', 'none'),
  },
  limits: {
    /** Captcha fetches + verifies per IP per minute. */
    captchaPerMinute: env.get('LIMIT_CAPTCHA_PER_MINUTE', 30),
    /** Failed logins per IP in `window` before a block. */
    loginFailuresPerIp: env.get('LIMIT_LOGIN_FAILURES_PER_IP', 20),
    /** Failed logins per account in `window` before a block. */
    loginFailuresPerAccount: env.get('LIMIT_LOGIN_FAILURES_PER_ACCOUNT', 5),
    /**
     * The ceiling (NIST SP 800-63B: at most 100 consecutive failures): password failures of an
     * account by callers without an owner's key, whatever their address or proof-of-work level,
     * before such callers are refused (429 E_ACCOUNT_LOCKED) until the owner signs in, an unlock,
     * or `capWindow` after the first of them.
     */
    loginAccountCap: Math.max(1, Math.min(100, env.get('LOGIN_ACCOUNT_CAP', 100))),
    capWindow: '24 hours',
    /** Wrong proof-of-work solutions whose key is derived, per address in `window`. */
    powFailuresPerIp: 3,
    window: '15 mins',
    /** First block; each further refused attempt during a block doubles it, up to `maxBlock`. */
    block: '15 mins',
    maxBlock: '24 hours',
  },
  /** Password lifecycle (docs/architecture.md, "Password lifecycle and own profile"). */
  passwords: {
    /** Days a password may be used before it must be changed; 0 = no expiry. */
    maxAgeDays: Math.max(0, env.get('PASSWORD_MAX_AGE_DAYS', 0)),
    /** How many of the account's latest passwords (the current one included) cannot be reused. */
    history: Math.max(0, env.get('PASSWORD_HISTORY', 5)),
  },
}

export default adminAuthConfig
