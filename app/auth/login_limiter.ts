import limiter from '@adonisjs/limiter/services/main'
import { errors as limiterErrors } from '@adonisjs/limiter'
import string from '@adonisjs/core/helpers/string'
import adminAuthConfig from '#config/admin_auth'
import type { HttpContext } from '@adonisjs/core/http'
import { type ApiException, accountLocked, tooManyRequests } from '#exceptions/api_exception'
import { addressKey } from '#services/address_key'

/**
 * Password attempts (login and the current-password check of a password change), limited so
 * that an attacker cannot turn the limits against the account's owner (docs/architecture.md, "Login
 * defences"):
 *
 * - Each attempt RESERVES one allowance on every key it counts against before any hash runs
 *   (the store's atomic consume), so N concurrent wrong passwords verify at most N hashes; a
 *   success gives the reservation back. Per account, attempts also run one at a time in this
 *   process, so a burst queues instead of filling the CPU with argon2id.
 * - The attempt that uses the last allowance of a key starts ITS block; each further block of
 *   that key within a day lasts twice as long (up to maxBlock): the history grows once per block.
 * - An anonymous attempt counts against its client address and the account. An attempt that
 *   presents a valid device token of the account (issued by an earlier login on that device)
 *   counts only against (account, device): anonymous failures never lock the owner out.
 */

const { limits } = adminAuthConfig
const windowSeconds = string.seconds.parse(limits.window)
const capWindowSeconds = string.seconds.parse(limits.capWindow)
const baseBlock = string.seconds.parse(limits.block)
const maxBlock = string.seconds.parse(limits.maxBlock)

/**
 * A counted key: its allowance in its window (`windowSeconds` unless `seconds`). A `ceiling` key
 * is an account's absolute cap: it is never blocked by doubling, it stays spent until its window
 * ends or it is cleared, and it refuses with E_ACCOUNT_LOCKED.
 */
export type LimitKey = { key: string; requests: number; seconds?: number; ceiling?: true }

const limitKey = (key: string, requests: number): LimitKey => ({ key, requests })
const perAccount = () => limits.loginFailuresPerAccount
const ceiling = (key: string): LimitKey => ({
  key,
  requests: limits.loginAccountCap,
  seconds: capWindowSeconds,
  ceiling: true,
})

export const ipKey = (ip: string) =>
  limitKey(`login_ip_${addressKey(ip)}`, limits.loginFailuresPerIp)
/** Accounts are case-insensitive for counting, so "Admin" and "admin" share one counter. */
export const accountKey = (account: string) =>
  limitKey(`login_account_${account.toLowerCase()}`, perAccount())
/**
 * The ceiling: every password check of the account by a caller without an owner's key counts,
 * whatever its address or proof-of-work level (docs/front-door.md, "The ceiling").
 */
export const ceilingKey = (account: string) => ceiling(`login_ceiling_${account.toLowerCase()}`)
/**
 * The current-password check of a password change, per signed-in session (the JWT's `jti`): a
 * stolen token guesses at most this many times, and anonymous login failures never block the owner.
 */
export const sessionKey = (sessionId: string) =>
  limitKey(`password_session_${sessionId}`, perAccount())
/** An owner's key (a device token): its own small budget; it passes the ceiling. */
export const deviceKey = (deviceId: string) => limitKey(`login_device_${deviceId}`, perAccount())

/**
 * The second login step (a TOTP or recovery code after a right password) has keys of its own: a
 * right password must not clear what wrong codes counted, and wrong codes must not lock the
 * password step. Without a device token: the address, the (account, address) pair, and the
 * account's second-step ceiling, so wrong codes from one address never lock the owner out of
 * another; with one, only (account, device).
 */
export const mfaIpKey = (ip: string) =>
  limitKey(`mfa_ip_${addressKey(ip)}`, limits.loginFailuresPerIp)
export const mfaAccountIpKey = (userId: number, ip: string) =>
  limitKey(`mfa_account_${userId}_${addressKey(ip)}`, perAccount())
export const mfaCeilingKey = (userId: number) => ceiling(`mfa_ceiling_${userId}`)
export const mfaDeviceKey = (deviceId: string) => limitKey(`mfa_device_${deviceId}`, perAccount())

/** Wrong proof-of-work solutions an address may have derived (each costs the server a scrypt). */
export const powFailureKey = (ip: string) =>
  limitKey(`pow_failures_${addressKey(ip)}`, limits.powFailuresPerIp)

/**
 * Every key an account's unlock clears: its login and second-step counts, its ceilings, and its
 * devices'. (The second step's (account, address) pairs are not enumerable: they end with their
 * 15-minute window.)
 */
export const accountLimitKeys = (account: string, userId: number, deviceIds: string[]) => [
  accountKey(account),
  ceilingKey(account),
  mfaCeilingKey(userId),
  ...deviceIds.flatMap((id) => [deviceKey(id), mfaDeviceKey(id)]),
]

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
const knownBlocks = new Map<string, { until: number; checkAfter: number }>()
const MAX_KNOWN_BLOCKS = 10_000

export function forgetKnownBlocks(keys?: string[]) {
  if (!keys) knownBlocks.clear()
  else for (const key of keys) knownBlocks.delete(key)
}

function rememberBlock(key: string, seconds: number) {
  if (knownBlocks.size >= MAX_KNOWN_BLOCKS) knownBlocks.clear()
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
  forgetKnownBlocks([...names])
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
  forgetKnownBlocks(keys.map((limit) => limit.key))
}

/** Blocks a key earned in the last day (whatever the store: database or Redis). */
export async function blocksToday(limit: LimitKey): Promise<number> {
  const history = await blockHistory().get(`${limit.key}_blocks`)
  return history?.consumed ?? 0
}

/** Ends the count (and so the block) of a key as its expiry would, keeping its block history. */
export async function expireCount(limit: LimitKey) {
  await store(limit).delete(limit.key)
  forgetKnownBlocks([limit.key])
}

/** Until when the longest blocked of the keys is (null when none is), for the user list. */
export async function blockedUntil(keys: LimitKey[]): Promise<Date | null> {
  const states = await Promise.all(keys.map((limit) => store(limit).get(limit.key)))
  const seconds = Math.max(
    0,
    ...states.map((state) => (state === null || state.remaining > 0 ? 0 : state.availableIn))
  )
  return seconds > 0 ? new Date(Date.now() + seconds * 1000) : null
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

const captchaLimiter = () => limiter.use({ requests: limits.captchaPerMinute, duration: '1 min' })

/**
 * Creates every limiter this module uses. The limiter manager caches them with the database
 * client current at creation; the tests call this once, before any test (tests/bootstrap.ts), so
 * which client a limiter holds never depends on the order the test files run in.
 */
export function createLimiters() {
  store(ipKey(''))
  store(accountKey(''))
  store(ceilingKey(''))
  store(powFailureKey(''))
  blockHistory()
  captchaLimiter()
  challengeCounter()
}

const challengeCounter = () => limiter.use({ requests: 1_000_000, duration: '30 mins' })

/** Proof-of-work challenges issued to an address in its 30-minute window, this one included. */
export async function countChallenge(ip: string) {
  const state = await challengeCounter().increment(`pow_ip_${addressKey(ip)}`)
  return state.consumed
}

/** Captcha fetch + verify per IP per minute; throws the limiter's 429 when exceeded. */
export async function consumeCaptchaAllowance(ip: string, response?: HttpContext['response']) {
  const state = await captchaLimiter().consume(`captcha_ip_${addressKey(ip)}`)
  if (response) {
    setRateLimitHeaders(response, {
      limit: limits.captchaPerMinute,
      remaining: state.remaining,
      resetIn: state.availableIn,
    })
  }
}
