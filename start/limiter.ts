/*
| HTTP throttles (@adonisjs/limiter), used as route middleware. Login limits live in
| app/auth/limits.ts and their users (login_limiter.ts, app/captcha/captcha_limits.ts).
*/
import limiter from '@adonisjs/limiter/services/main'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import env from '#start/env'
import { addressKey } from '#core/address_key'
import { consumeCaptchaAllowance } from '#captcha/captcha_limits'

/**
 * Keyword searches on the public list, per client address: each costs an index lookup (or a scan
 * on SQLite), unlike the cached unfiltered pages. Requests without a keyword are not counted.
 *
 * Memory store, per instance, on purpose: this limit exists to keep load off the database, and a
 * database counter would add a write to the main pool for every search. With N instances behind a
 * load balancer an address gets at most N times the limit; login limits, which guard accounts,
 * stay in the shared store (app/auth/limits.ts).
 */
const keywordSearches = limiter.define('public_search', (ctx) =>
  limiter
    .allowRequests(env.get('LIMIT_SEARCH_PER_MINUTE', 60))
    .every('1 minute')
    .store('memory')
    .usingKey(`search_ip_${addressKey(ctx.request.ip())}`)
)
/** A list request without a keyword goes straight on (not through the limiter's async steps). */
export function publicSearchThrottle(ctx: HttpContext, next: NextFn) {
  const keyword = ctx.request.qs().keyword
  if (typeof keyword !== 'string' || !keyword.trim()) return next()
  return keywordSearches(ctx, next)
}

/**
 * Captcha challenge, slider and verify, per client address per minute, counted in the shared store
 * (every instance spends one allowance) before the controller runs; a 429 once it is spent. Not
 * `limiter.define`: the answer carries the IETF RateLimit-* headers, as login and password do.
 */
export async function captchaThrottle(ctx: HttpContext, next: NextFn) {
  await consumeCaptchaAllowance(ctx.request.ip(), ctx.response)
  return next()
}
