import string from '@adonisjs/core/helpers/string'
import adminAuthConfig from '#config/admin_auth'
import { addressKey } from '#core/address_key'
import type { LimitKey } from '#auth/limits'

/**
 * Which keys a password attempt or a second-step code counts against (the mechanics:
 * app/auth/limits.ts). An anonymous attempt counts against its client address, the account's
 * 15-minute allowance and the account's ceiling; an attempt that presents a valid device token of
 * the account (an owner's key) counts only against (account, device): anonymous failures never
 * lock the owner out (docs/front-door.md, "The ceiling, and keys only the owner holds").
 */

const { limits } = adminAuthConfig
const capWindowSeconds = string.seconds.parse(limits.capWindow)

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
/** An owner's key (a passkey assertion made for the login): its own budget, like a device's. */
export const passkeyKey = (passkeyId: number) =>
  limitKey(`login_passkey_${passkeyId}`, perAccount())

/**
 * Options for a passkey sign-in without an account (they store nothing): per address per minute,
 * as the captcha's requests are.
 */
export const passkeyOptionsKey = (ip: string) => ({
  key: `passkey_options_${addressKey(ip)}`,
  requests: limits.captchaPerMinute,
  seconds: 60,
})

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

/**
 * Every key an account's unlock clears: its login and second-step counts, its ceilings, its
 * devices' and its passkeys'. (The second step's (account, address) pairs are not enumerable:
 * they end with their 15-minute window.)
 */
export const accountLimitKeys = (
  account: string,
  userId: number,
  deviceIds: string[],
  passkeyIds: number[] = []
) => [
  accountKey(account),
  ceilingKey(account),
  mfaCeilingKey(userId),
  ...deviceIds.flatMap((id) => [deviceKey(id), mfaDeviceKey(id)]),
  ...passkeyIds.map((id) => passkeyKey(id)),
]

/** One key of each allowance and window above (tests create their limiters first). */
export const loginLimitSamples = () => [ipKey(''), accountKey(''), ceilingKey('')]
