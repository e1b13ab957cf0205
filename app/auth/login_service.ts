import hash from '@adonisjs/core/services/hash'
import { DateTime } from 'luxon'
import type { Logger } from '@adonisjs/core/logger'
import { signAdminToken } from '#auth/jwt'
import { consumeCredential, credentialLevel } from '#captcha/challenge_store'
import { captchaTokenInvalid, invalidCredentials } from '#exceptions/api_exception'
import { LOCKED_ACCOUNT_LEVEL } from '#captcha/difficulty'
import { hashGate } from '#services/cpu_gates'
import { findAccount, hashPassword } from '#services/admin_account_service'
import { findDevice, issueDeviceToken, touchDevice } from '#auth/device_tokens'
import { createSession } from '#auth/sessions'
import { recordLogin } from '#auth/login_log'
import {
  type LimitKey,
  accountKey,
  assertAllowed,
  countFailure,
  deviceKey,
  giveBack,
  ipKey,
  oneAtATime,
  reserveAttempt,
  settleFailure,
  settleSuccess,
} from '#auth/login_limiter'

/**
 * A digest of a random password, verified when the account does not exist so that an unknown
 * account costs the same argon2id work as a wrong password (no account enumeration by timing).
 */
let dummyDigest: Promise<string> | undefined
const getDummyDigest = () => (dummyDigest ??= hashPassword(crypto.randomUUID()))

type LoginInput = {
  account: string
  password: string
  captchaToken?: string
  deviceToken?: string
  ip: string
  userAgent?: string
}

/**
 * A refused (429) login is logged, and written to the login log, once per key per minute: a flood
 * of refused attempts must stay as cheap as the limiter makes it, not become a write per request.
 */
const throttleLogged = new Map<string, number>()
async function logThrottled(logger: Logger, keys: LimitKey[], input: LoginInput) {
  const now = Date.now()
  const key = keys.map((limit) => limit.key).join('|')
  if ((throttleLogged.get(key) ?? 0) > now) return
  if (throttleLogged.size > 10_000) throttleLogged.clear()
  throttleLogged.set(key, now + 60_000)
  logger.warn({ event: 'login.throttled', account: input.account, ip: input.ip }, 'login throttled')
  await recordLogin({ ...input, outcome: 'throttled' })
}

async function limited<T>(logger: Logger, keys: LimitKey[], input: LoginInput, work: () => T) {
  try {
    return await work()
  } catch (error) {
    if ((error as { status?: number }).status === 429) {
      await logThrottled(logger, keys, input)
    }
    throw error
  }
}

/**
 * Login: limits (reserve the attempt before any hash) -> spend the credential and check its level
 * -> find the account -> argon2id behind the hash gate (a dummy digest for unknown accounts) ->
 * status -> JWT and device token. One error for unknown account, wrong password and disabled.
 * Why this order and what counts where: docs/architecture.md, "Login defences". Database errors
 * propagate (5xx); they never become a failed login.
 */
export async function login(input: LoginInput, logger: Logger) {
  const { account, password, captchaToken, ip } = input
  const device = input.deviceToken ? await findDevice(input.deviceToken, account) : null
  // A credential paid at the locked-account level is not refused by the account's block: a new
  // device of the owner gets in by working longer (app/captcha/difficulty.ts).
  const paidForLock =
    !device && captchaToken ? credentialLevel(captchaToken) >= LOCKED_ACCOUNT_LEVEL : false
  const keys = device
    ? [deviceKey(device.id)]
    : paidForLock
      ? [ipKey(ip)]
      : [ipKey(ip), accountKey(account)]
  const counted = device ? keys[0] : accountKey(account)
  const priority = device ? 'trusted' : 'anonymous'

  await limited(logger, keys, input, () => assertAllowed(keys))
  return oneAtATime(counted.key, async () => {
    const reservation = await limited(logger, keys, input, () => reserveAttempt(keys))

    const paid = captchaToken ? await consumeCredential(captchaToken, ip) : null
    if (!paid || (paid.account !== null && paid.account !== account.toLowerCase())) {
      // Not a password attempt: the reservation goes back, the address pays for it.
      await giveBack(reservation)
      await countFailure(ipKey(ip))
      logger.info({ event: 'login.failed', reason: 'captcha_token', account, ip }, 'login failed')
      await recordLogin({ ...input, outcome: 'captcha_token_invalid' })
      throw captchaTokenInvalid()
    }

    const user = await findAccount(account)
    const digest = user?.password ?? (await getDummyDigest())
    const passwordMatches = await hashGate.run(priority, () => hash.verify(digest, password))
    if (!user || !passwordMatches || !user.isEnabled) {
      await settleFailure(reservation)
      if (paidForLock) await countFailure(counted)
      logger.info({ event: 'login.failed', reason: 'credentials', account, ip }, 'login failed')
      await recordLogin({
        ...input,
        userId: user?.id ?? null,
        outcome: !user
          ? 'unknown_account'
          : !passwordMatches
            ? 'wrong_password'
            : 'account_disabled',
      })
      throw invalidCredentials()
    }

    await settleSuccess(reservation, counted)
    // Hashing parameters changed since this digest was made: re-hash with the current ones.
    if (hash.needsReHash(user.password)) user.password = await hashPassword(password, priority)
    user.lastLoginAt = DateTime.utc()
    await user.save()
    let deviceToken = input.deviceToken!
    if (device) await touchDevice(device)
    else deviceToken = await issueDeviceToken(user.id)
    const sessionId = await createSession(user.id, input)
    await recordLogin({ ...input, userId: user.id, outcome: 'succeeded' })
    logger.info(
      { event: 'login.succeeded', account, userId: user.id, ip, device: Boolean(device) },
      'login succeeded'
    )
    return {
      body: { ...(await signAdminToken(user.id, user.tokenVersion, sessionId)), deviceToken },
      // What the counted key has left after this success (a success gives its attempt back).
      rateLimit: { limit: counted.requests, remaining: counted.requests, resetIn: 0 },
    }
  })
}
