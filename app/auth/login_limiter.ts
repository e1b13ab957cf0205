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
 * Refuses (429 + Retry-After) while the IP or the account is blocked. Runs before anything costly:
 * a refused login never consumes its credential, never reads the account, never computes a hash.
 */
export async function assertLoginAllowed(ip: string, account: string) {
  const [byIp, byAccount] = await Promise.all([
    ipFailures().get(ipKey(ip)),
    accountFailures().get(accountKey(account)),
  ])
  const blocked = [byIp, byAccount].filter((state) => state !== null && state.remaining <= 0)
  if (blocked.length) {
    throw tooManyRequests(Math.max(...blocked.map((state) => state!.availableIn)))
  }
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
