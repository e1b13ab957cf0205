/*
| HTTP throttles (@adonisjs/limiter). Login and captcha limits live in app/auth/login_limiter.ts,
| where their keys depend on the account and the attempt's outcome.
*/
import limiter from '@adonisjs/limiter/services/main'
import env from '#start/env'
import { addressKey } from '#services/address_key'

/**
 * Keyword searches on the public list, per client address: each costs an index lookup (or a scan
 * on SQLite), unlike the cached unfiltered pages. Requests without a keyword are not counted.
 *
 * Memory store, per instance, on purpose: this limit exists to keep load off the database, and a
 * database counter would add a write to the main pool for every search. With N instances behind a
 * load balancer an address gets at most N times the limit; login limits, which guard accounts,
 * stay in the shared store (app/auth/login_limiter.ts).
 */
export const publicSearchThrottle = limiter.define('public_search', (ctx) => {
  const keyword = ctx.request.qs().keyword
  if (typeof keyword !== 'string' || !keyword.trim()) return limiter.noLimit()
  return limiter
    .allowRequests(env.get('LIMIT_SEARCH_PER_MINUTE', 60))
    .every('1 minute')
    .store('memory')
    .usingKey(`search_ip_${addressKey(ctx.request.ip())}`)
})
