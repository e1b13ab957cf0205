import limiter from '@adonisjs/limiter/services/main'
import { errors as limiterErrors } from '@adonisjs/limiter'
import string from '@adonisjs/core/helpers/string'
import type { HttpContext } from '@adonisjs/core/http'
import { preparedQuery } from '#core/prepared_query'
import { cache } from '#core/cache'
import adminAuthConfig from '#config/admin_auth'
import { limiterStore } from '#config/limiter'
import { type ApiException, accountLocked, tooManyRequests } from '#exceptions/api_exception'

/**
 * The limits themselves, over @adonisjs/limiter's shared store (docs/architecture.md, "Login
 * defences"); which keys an attempt counts against is its user's business (app/auth/login_limiter.ts,
 * app/captcha/captcha_limits.ts):
 *
 * - An attempt RESERVES one allowance on every key it counts against before the costly work
 *   (the store's atomic consume), so N concurrent failures do at most N units of work; a success
 *   gives the reservation back.
 * - The attempt that uses the last allowance of a key starts ITS block; each further block of
 *   that key within a day lasts twice as long (up to maxBlock): the history grows once per block.
 *   A `ceiling` key is never blocked: it stays spent until its window ends or it is cleared.
 * - Refusals are 429 with Retry-After and the RateLimit-* headers; a ceiling's is E_ACCOUNT_LOCKED.
 */

const { limits } = adminAuthConfig
const windowSeconds = string.seconds.parse(limits.window)
const baseBlock = string.seconds.parse(limits.block)
const maxBlock = string.seconds.parse(limits.maxBlock)

/** rate-limiter-flexible's default key prefix (config/limiter.ts sets none of its own). */
const STORE_KEY_PREFIX = 'rlflx:'

/**
 * A counted key: its allowance in its window (`window` of config/admin_auth.ts unless `seconds`).
 * A `ceiling` key is an account's absolute cap (see above).
 */
export type LimitKey = { key: string; requests: number; seconds?: number; ceiling?: true }

/** The refusal of a key: 429 E_ACCOUNT_LOCKED for a ceiling, else E_TOO_MANY_REQUESTS. */
export type Refusal = ApiException & { refusedBy?: string }
function refusal(limit: LimitKey, seconds: number): Refusal {
  const error: Refusal = limit.ceiling
    ? accountLocked(seconds)
    : tooManyRequests(seconds, limit.requests)
  error.refusedBy = limit.key
  return error
}

const store = (limit: LimitKey) =>
  limiter.use({ requests: limit.requests, duration: limit.seconds ?? windowSeconds })
/** How many blocks a key earned in the last day: each new block lasts twice the previous one. */
const blockHistory = () => limiter.use({ requests: 64, duration: '24 hours' })

/**
 * Blocks this process has read, remembered for at most KNOWN_BLOCK_MS so that a flood of refused
 * logins costs no query; short enough that an unlock on another instance applies within seconds
 * (an unlock on this instance forgets them at once).
 */
const KNOWN_BLOCK_MS = 2000
const knownBlocks = cache<string, { until: number; checkAfter: number }>('known-blocks', {
  max: 10_000,
})

function forgetBlocks(keys: string[]) {
  for (const key of keys) knownBlocks.delete(key)
}

function rememberBlock(key: string, seconds: number) {
  const now = Date.now()
  knownBlocks.set(key, { until: now + seconds * 1000, checkAfter: now + KNOWN_BLOCK_MS })
}

/**
 * Refuses (429 + Retry-After) while one of the keys is blocked, before anything costly: a refused
 * attempt never consumes a credential, never reads the account, never hashes.
 */
export async function assertAllowed(keys: LimitKey[]) {
  const now = Date.now()
  // The longest block among the keys, and its key (the refusal and its RateLimit-Limit).
  let longest: { seconds: number; limit?: LimitKey } = { seconds: 0 }
  const longer = (seconds: number, limit: LimitKey) => {
    if (seconds > longest.seconds) longest = { seconds, limit }
  }
  const unknown: LimitKey[] = []
  for (const limit of keys) {
    const known = knownBlocks.get(limit.key)
    if (known && known.checkAfter > now && known.until > now) {
      longer((known.until - now) / 1000, limit)
    } else {
      knownBlocks.delete(limit.key)
      unknown.push(limit)
    }
  }
  if (longest.limit) throw refusal(longest.limit, longest.seconds)
  const states = await Promise.all(unknown.map((limit) => store(limit).get(limit.key)))
  states.forEach((state, index) => {
    if (state !== null && state.remaining <= 0) {
      rememberBlock(unknown[index].key, state.availableIn)
      longer(state.availableIn, unknown[index])
    }
  })
  if (longest.limit) throw refusal(longest.limit, longest.seconds)
}

/** Attempts per account run one at a time in this process (a burst queues, it does not fan out). */
const inFlight = new Map<string, Promise<unknown>>()

export async function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = inFlight.get(key) ?? Promise.resolve()
  const run = previous.then(work, work)
  const settled = run.then(
    () => {},
    () => {}
  )
  inFlight.set(key, settled)
  try {
    return await run
  } finally {
    if (inFlight.get(key) === settled) inFlight.delete(key)
  }
}

export type Reservation = { limit: LimitKey; remaining: number; resetIn: number }[]

/**
 * Reserves one attempt on every key (atomic in the store). When a key has no allowance left the
 * reservations already taken are given back and the attempt is refused with a 429.
 */
export async function reserveAttempt(keys: LimitKey[]): Promise<Reservation> {
  const taken: Reservation = []
  for (const limit of keys) {
    try {
      const state = await store(limit).consume(limit.key)
      taken.push({ limit, remaining: state.remaining, resetIn: state.availableIn })
    } catch (error) {
      await giveBack(taken)
      if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) {
        const availableIn = error.response.availableIn
        rememberBlock(limit.key, availableIn)
        throw refusal(limit, availableIn)
      }
      throw error
    }
  }
  return taken
}

export async function giveBack(reservation: Reservation) {
  for (const { limit } of reservation) await store(limit).decrement(limit.key)
}

/**
 * A wrong password keeps its reservations; the one that used a key's last allowance blocks it (a
 * ceiling stays spent until its window ends: it needs no block).
 */
export async function settleFailure(reservation: Reservation) {
  for (const { limit, remaining } of reservation) {
    if (remaining <= 0 && !limit.ceiling) await startBlock(limit)
  }
}

/** A failure that is not a password attempt (a bad captcha credential): counted, never reserved. */
export async function countFailure(limit: LimitKey) {
  const state = await store(limit).increment(limit.key)
  // Only the failure that used the last allowance starts the block.
  if (state.consumed === limit.requests) await startBlock(limit)
}

async function startBlock(limit: LimitKey) {
  const history = await blockHistory().increment(`${limit.key}_blocks`)
  const seconds = Math.min(baseBlock * 2 ** (history.consumed - 1), maxBlock)
  await store(limit).block(limit.key, seconds)
  rememberBlock(limit.key, seconds)
}

/** Failures counted against a key in its window, and whether it is blocked now. */
export async function failureState(limit: LimitKey) {
  const state = await store(limit).get(limit.key)
  return {
    failures: state?.consumed ?? 0,
    blocked: state !== null && state.remaining <= 0 && state.availableIn > 0,
  }
}

/**
 * A right password or code: the reservations are given back and the `cleared` counts deleted
 * (the account's or device's, and the ceiling: failures are consecutive ones).
 */
export async function settleSuccess(reservation: Reservation, cleared: LimitKey[]) {
  const names = new Set(cleared.map((limit) => limit.key))
  await giveBack(reservation.filter(({ limit }) => !names.has(limit.key)))
  for (const limit of cleared) await store(limit).delete(limit.key)
  forgetBlocks([...names])
}

/**
 * Unlock: clears the blocks and counts of the given keys (and their block history) in the shared
 * store, so every instance sees it; this process forgets them at once, others within seconds.
 */
export async function unlockKeys(keys: LimitKey[]) {
  for (const limit of keys) {
    await store(limit).delete(limit.key)
    await blockHistory().delete(`${limit.key}_blocks`)
  }
  forgetBlocks(keys.map((limit) => limit.key))
}

/** Blocks a key earned in the last day (whatever the store: database or Redis). */
export async function blocksToday(limit: LimitKey): Promise<number> {
  const history = await blockHistory().get(`${limit.key}_blocks`)
  return history?.consumed ?? 0
}

/** Ends the count (and so the block) of a key as its expiry would, keeping its block history. */
export async function expireCount(limit: LimitKey) {
  await store(limit).delete(limit.key)
  forgetBlocks([limit.key])
}

/**
 * For each list of keys, until when the longest blocked of them is (null when none is): the user
 * list's lock state, for a whole page at once. On the database store that is ONE statement over
 * the store's table (rate-limiter-flexible's rows: `rlflx:<key>`, consumed `points`, `expire` in
 * epoch ms; tests/functional/limits.spec.ts holds it equal to the store's own reads); on the
 * others, one read per key (Redis and memory reads cost no database round trip).
 */
export async function blockedUntilMany(lists: LimitKey[][]): Promise<(Date | null)[]> {
  const keys = lists.flat()
  const now = Date.now()
  const until = new Map<string, number>()
  if (limiterStore === 'database') {
    if (keys.length === 0) return []
    // A prepared statement (one text per number of keys): it runs on every users list page.
    const rows = await preparedQuery<{ key: string; points: number; expire: string | number }>(
      `SELECT key, points, expire FROM rate_limits
        WHERE key IN (${keys.map(() => '?').join(', ')}) AND expire > ?`,
      [...keys.map((limit) => `${STORE_KEY_PREFIX}${limit.key}`), now]
    )
    // Most pages hold no counted key: then nothing to match (a key string built per key).
    const byKey = new Map(rows.map((row) => [String(row.key), row]))
    if (byKey.size) {
      for (const limit of keys) {
        const row = byKey.get(`${STORE_KEY_PREFIX}${limit.key}`)
        if (row && Number(row.points) >= limit.requests) until.set(limit.key, Number(row.expire))
      }
    }
  } else {
    const states = await Promise.all(keys.map((limit) => store(limit).get(limit.key)))
    states.forEach((state, i) => {
      if (state !== null && state.remaining <= 0 && state.availableIn > 0) {
        until.set(keys[i].key, now + state.availableIn * 1000)
      }
    })
  }
  if (until.size === 0) return lists.map(() => null)
  return lists.map((list) => {
    const longest = Math.max(0, ...list.map((limit) => until.get(limit.key) ?? 0))
    return longest > now ? new Date(longest) : null
  })
}

/** Until when the longest blocked of the keys is (null when none is). */
export async function blockedUntil(keys: LimitKey[]): Promise<Date | null> {
  const [until] = await blockedUntilMany([keys])
  return until
}

/** The RateLimit-* headers (IETF draft) of the key an endpoint spent: what is left, and when. */
export function setRateLimitHeaders(
  response: HttpContext['response'],
  state: { limit: number; remaining: number; resetIn: number }
) {
  response.header('RateLimit-Limit', String(state.limit))
  response.header('RateLimit-Remaining', String(Math.max(0, state.remaining)))
  response.header('RateLimit-Reset', String(Math.max(0, Math.ceil(state.resetIn))))
}

/** One more count on a key (no allowance check): what it has consumed in its window. */
export async function increment(limit: LimitKey) {
  const state = await store(limit).increment(limit.key)
  return state.consumed
}

/** Spends one allowance of a key; throws the limiter's 429 when none is left. */
export function consume(limit: LimitKey) {
  return store(limit).consume(limit.key)
}

/**
 * Creates the limiters of these keys (one per allowance and window) and the block history. The
 * limiter manager caches each with the database client current at creation; the tests call this
 * once, before any test (tests/bootstrap.ts), so which client a limiter holds never depends on the
 * order the test files run in.
 */
export function createLimiters(keys: LimitKey[]) {
  for (const limit of keys) store(limit)
  blockHistory()
}
