import limiter from '@adonisjs/limiter/services/main'
import string from '@adonisjs/core/helpers/string'
import adminAuthConfig from '#config/admin_auth'
import { tooManyRequests } from '#exceptions/api_exception'

const { limits } = adminAuthConfig
const windowSeconds = string.seconds.parse(limits.window)
const baseBlock = string.seconds.parse(limits.block)
const maxBlock = string.seconds.parse(limits.maxBlock)

/** Failed logins per IP and per account in the window (the database store: shared by instances). */
const ipFailures = () =>
  limiter.use({ requests: limits.loginFailuresPerIp, duration: windowSeconds })
const accountFailures = () =>
  limiter.use({ requests: limits.loginFailuresPerAccount, duration: windowSeconds })
/** How many blocks a key earned in the last day: each new block lasts twice the previous one. */
const blockHistory = () => limiter.use({ requests: 64, duration: '24 hours' })

const ipKey = (ip: string) => `login_ip_${ip}`
/** Accounts are case-insensitive for counting, so "Admin" and "admin" share one counter. */
const accountKey = (account: string) => `login_account_${account.toLowerCase()}`

/**
 * Blocks this process has already read from the store, with their end time. A block only ends
 * by running out (a blocked key cannot log in, so nothing resets it early), so refusing from this
 * map until then is exact, and a flood of refused logins costs no query at all. Other instances
 * read the block from the shared store the first time they see the key.
 */
const knownBlocks = new Map<string, number>()
const MAX_KNOWN_BLOCKS = 10_000

function knownBlockSeconds(keys: string[]) {
  const now = Date.now()
  let longest = 0
  for (const key of keys) {
    const until = knownBlocks.get(key)
    if (until === undefined) continue
    if (until <= now) knownBlocks.delete(key)
    else longest = Math.max(longest, (until - now) / 1000)
  }
  return longest
}

/** Forgets the blocks this process knows of (tests reset the store between cases). */
export function forgetKnownBlocks() {
  knownBlocks.clear()
}

function rememberBlock(key: string, seconds: number) {
  if (knownBlocks.size >= MAX_KNOWN_BLOCKS) knownBlocks.clear()
  knownBlocks.set(key, Date.now() + seconds * 1000)
}

/**
 * Refuses (429 + Retry-After) while the IP or the account is blocked. Runs before anything costly:
 * a refused login never consumes its credential, never reads the account, never computes a hash.
 */
export async function assertLoginAllowed(ip: string, account: string) {
  const keys = [ipKey(ip), accountKey(account)]
  const known = knownBlockSeconds(keys)
  if (known > 0) throw tooManyRequests(known)

  const states = await Promise.all([ipFailures().get(keys[0]), accountFailures().get(keys[1])])
  let longest = 0
  states.forEach((state, index) => {
    if (state !== null && state.remaining <= 0) {
      rememberBlock(keys[index], state.availableIn)
      longest = Math.max(longest, state.availableIn)
    }
  })
  if (longest > 0) throw tooManyRequests(longest)
}

async function countFailure(store: ReturnType<typeof ipFailures>, key: string) {
  const state = await store.increment(key)
  if (state.remaining > 0) return
  const history = await blockHistory().increment(`${key}_blocks`)
  const seconds = Math.min(baseBlock * 2 ** (history.consumed - 1), maxBlock)
  await store.block(key, seconds)
}

/** A failed password check counts against the IP and the account. */
export async function recordCredentialFailure(ip: string, account: string) {
  await countFailure(ipFailures(), ipKey(ip))
  await countFailure(accountFailures(), accountKey(account))
}

/** A missing, used or expired captcha credential counts against the IP only. */
export async function recordCaptchaTokenFailure(ip: string) {
  await countFailure(ipFailures(), ipKey(ip))
}

/** A successful login clears the account's failures (not the IP's). */
export async function recordLoginSuccess(account: string) {
  await accountFailures().delete(accountKey(account))
}

/** Captcha fetch + verify per IP per minute; throws the limiter's 429 when exceeded. */
export async function consumeCaptchaAllowance(ip: string) {
  await limiter
    .use({ requests: limits.captchaPerMinute, duration: '1 min' })
    .consume(`captcha_ip_${ip}`)
}
