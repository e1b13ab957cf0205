import { failureState } from '#auth/limits'
import { accountKey, ipKey } from '#auth/login_limiter'
import { countChallenge } from '#captcha/captcha_limits'
import { hashGate } from '#core/cpu_gates'
import { MAX_LEVEL } from '#captcha/proof_of_work'

/**
 * The proof-of-work level a captcha costs (0 = base; levels 1-3 x2, x4, x16: proof_of_work.ts):
 * - the address (an IPv6 /64 counts as one): its 4th challenge within 30 minutes and later -> 1;
 *   3 failures (login or captcha) in the limiter window -> 2; blocked -> 3;
 * - the account it is asked for: "locked" (its failures from new devices used up) -> 2. A login
 *   with a credential of that level is not refused by the lock, so an attacker cannot lock the
 *   owner out, only make a new browser work x16 longer (docs/front-door.md has the numbers);
 * - the load: while the password-hash gate is more than half full, one level more, up to
 *   LOCKED_ACCOUNT_LEVEL: level 3, whose wait is no person's, stays a blocked address's;
 * - a valid device token of the account: 0, whatever the address, the account or the load did.
 * Login lets a credential of LOCKED_ACCOUNT_LEVEL past the account's lock (app/login/password_step.ts).
 */
export const LOCKED_ACCOUNT_LEVEL = 2
const CHALLENGES_BEFORE_X4 = 3

async function addressLevel(ip: string) {
  const state = await failureState(ipKey(ip))
  return state.blocked ? MAX_LEVEL : state.failures >= 3 ? 2 : 0
}

async function accountLevel(account: string) {
  const state = await failureState(accountKey(account))
  return state.blocked ? LOCKED_ACCOUNT_LEVEL : 0
}

/** The level of a new challenge for this caller; counts the challenge against its address. */
export async function challengeLevel(ip: string, account: string | null, trustedDevice: boolean) {
  if (trustedDevice) return 0
  const issued = await countChallenge(ip)
  const levels = await Promise.all([
    addressLevel(ip),
    account ? accountLevel(account) : Promise.resolve(0),
  ])
  const level = Math.max(issued > CHALLENGES_BEFORE_X4 ? 1 : 0, ...levels)
  if (level === MAX_LEVEL) return level
  return Math.min(LOCKED_ACCOUNT_LEVEL, level + (hashGate.fill > 0.5 ? 1 : 0))
}
