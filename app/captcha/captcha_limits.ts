import adminAuthConfig from '#config/admin_auth'
import type { HttpContext } from '@adonisjs/core/http'
import { addressKey } from '#core/address_key'
import { type LimitKey, consume, increment, setRateLimitHeaders } from '#auth/limits'

/**
 * The captcha's limits (the mechanics: app/auth/limits.ts): requests per address per minute,
 * challenges per address in 30 minutes (they raise its proof-of-work level), and wrong proofs of
 * work whose key the server derived.
 */
const { limits } = adminAuthConfig

/** Wrong proof-of-work solutions an address may have derived (each costs the server a scrypt). */
export const powFailureKey = (ip: string): LimitKey => ({
  key: `pow_failures_${addressKey(ip)}`,
  requests: limits.powFailuresPerIp,
})

const allowanceKey = (ip: string): LimitKey => ({
  key: `captcha_ip_${addressKey(ip)}`,
  requests: limits.captchaPerMinute,
  seconds: 60,
})
const challengeKey = (ip: string): LimitKey => ({
  key: `pow_ip_${addressKey(ip)}`,
  requests: 1_000_000,
  seconds: 30 * 60,
})

/** One key of each allowance and window above (tests create their limiters first). */
export const captchaLimitSamples = () => [allowanceKey(''), challengeKey(''), powFailureKey('')]

/** Proof-of-work challenges issued to an address in its 30-minute window, this one included. */
export const countChallenge = (ip: string) => increment(challengeKey(ip))

/** Captcha fetch + verify per IP per minute; throws the limiter's 429 when exceeded. */
export async function consumeCaptchaAllowance(ip: string, response?: HttpContext['response']) {
  const state = await consume(allowanceKey(ip))
  if (response) {
    setRateLimitHeaders(response, {
      limit: limits.captchaPerMinute,
      remaining: state.remaining,
      resetIn: state.availableIn,
    })
  }
}
