import type { Assert } from '@japa/assert'

/**
 * A 429 names when to retry and the RateLimit-* headers (IETF draft): nothing remains, the window
 * resets when the client may retry. `limit`: the refusing key's allowance, where the answer names
 * it (the captcha and route throttles); the login blocks do not name it (api_exception.ts).
 */
export function assertRateLimitHeaders(
  assert: Assert,
  headers: Record<string, unknown>,
  limit?: number
) {
  assert.isAtLeast(Number(headers['retry-after']), 1)
  assert.equal(headers['ratelimit-remaining'], '0')
  assert.equal(headers['ratelimit-reset'], headers['retry-after'])
  if (limit !== undefined) assert.equal(headers['ratelimit-limit'], String(limit))
}
