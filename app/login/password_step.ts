import hash from '@adonisjs/core/services/hash'
import type { Logger } from '@adonisjs/core/logger'
import db from '@adonisjs/lucid/services/db'
import emitter from '@adonisjs/core/services/emitter'
import adminAuthConfig from '#config/admin_auth'
import { credentialLevel } from '#captcha/challenge_store'
import { LOCKED_ACCOUNT_LEVEL } from '#captcha/difficulty'
import { spendCredential } from '#captcha/captcha_service'
import { captchaTokenInvalid, invalidCredentials, passkeyRequired } from '#exceptions/api_exception'
import { hashGate } from '#core/cpu_gates'
import { findAccount, hashPassword } from '#auth/passwords'
import { recordLogin } from '#auth/login_log'
import type User from '#models/user'
import { issueMfaToken } from '#auth/mfa_tokens'
import { type AssertionInput, unlockBinding, verifyAssertion } from '#auth/passkeys'
import { loadAccessSnapshot } from '#auth/access_snapshot'
import { countFailure, giveBack, settleFailure, settleSuccess } from '#auth/limits'
import { accountKey, ceilingKey, deviceKey, ipKey, passkeyKey } from '#auth/login_limiter'
import type { Client } from '#core/client'
import { deviceOf, refusedPasskey, reserved, signIn } from '#login/sign_in'

/**
 * A digest of a random password, verified when the account does not exist so that an unknown
 * account costs the same argon2id work as a wrong password (no account enumeration by timing).
 */
let dummyDigest: Promise<string> | undefined
const getDummyDigest = () => (dummyDigest ??= hashPassword(crypto.randomUUID()))

type LoginInput = Client & {
  account: string
  password: string
  captchaToken?: string
  deviceToken?: string
  /** An assertion for the options of POST /api/auth/login/passkey/options { account }. */
  passkey?: AssertionInput
}

/**
 * A passkey assertion presented with the password (an owner's key through the ceiling): verified
 * against the challenge of POST /api/auth/login/passkey/options { account } for this account and
 * address (spent). Refused: the address pays, 400 E_PASSKEY_INVALID, no password checked.
 */
async function ownerPasskey(
  response: AssertionInput,
  input: Client & { account: string },
  logger: Logger
) {
  const binding = unlockBinding(input.account, input.ip)
  const assertion = await verifyAssertion('unlock', binding, response, input)
  if ('passkey' in assertion) return assertion.passkey
  await countFailure(ipKey(input.ip))
  logger.info(
    { event: 'login.failed', reason: assertion.refused, account: input.account, ip: input.ip },
    'login failed'
  )
  // The log names the account when it exists (its administrators read it; the answer does not).
  const user = assertion.userId === null ? await findAccount(input.account) : null
  const userId = assertion.userId ?? user?.id ?? null
  await recordLogin({ ...input, userId, outcome: assertion.refused })
  throw refusedPasskey(assertion)
}

/**
 * Login: limits (reserve the attempt before any hash) -> spend the credential and check its level
 * -> find the account -> argon2id behind the hash gate (a dummy digest for unknown accounts) ->
 * status -> JWT and device token, or, for an account with a second factor (unless the device was
 * remembered at a second step), an mfaToken for loginSecondStep. One error for unknown account,
 * wrong password and disabled.
 * With a passkey assertion (verified first) the attempt counts only against that passkey, passes
 * the ceiling, needs no captcha credential (its options spent one) and, the passkey being a
 * second factor, ends with the JWT.
 * Why this order and what counts where: docs/architecture.md, "Login defences". Database errors
 * propagate (5xx); they never become a failed login.
 */
export async function login(input: LoginInput, logger: Logger) {
  const { account, password, captchaToken, ip } = input
  const device = await deviceOf(input.deviceToken, account, input)
  const passkey = input.passkey ? await ownerPasskey(input.passkey, input, logger) : null
  // The owner's key this attempt counts against alone (it passes the ceiling).
  const ownerKey = passkey ? passkeyKey(passkey.id) : device ? deviceKey(device.id) : null
  // A credential paid at the locked-account level is not refused by the account's 15-minute
  // block (app/captcha/difficulty.ts); every caller without an owner's key counts against the
  // ceiling, whatever it paid.
  const paidForLock =
    !ownerKey && captchaToken ? credentialLevel(captchaToken) >= LOCKED_ACCOUNT_LEVEL : false
  const keys = ownerKey
    ? [ownerKey]
    : paidForLock
      ? [ipKey(ip), ceilingKey(account)]
      : [ipKey(ip), accountKey(account), ceilingKey(account)]
  const counted = ownerKey ?? accountKey(account)
  const priority = ownerKey ? 'trusted' : 'anonymous'

  return reserved(logger, input, keys, counted, async (reservation) => {
    // A passkey's options were paid with a captcha credential (spent then, bound to this account).
    if (!passkey && !(await spendCredential(captchaToken, ip, account))) {
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
      // The failure that took the ceiling's last allowance (once per window): the owner is told
      // (start/events.ts).
      const ceiling = reservation.find(({ limit }) => limit.ceiling)
      if (user && ceiling && ceiling.remaining <= 0) {
        emitter.emit('auth:ceiling_reached', { userId: user.id, ip, windowEndsIn: ceiling.resetIn })
      }
      if (paidForLock) await countFailure(counted)
      if (user && !passwordMatches) await countFailedLogin(user.id)
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

    // The owner is in: the failures before were not consecutive any more (the ceiling restarts).
    await settleSuccess(reservation, [counted, ceilingKey(account)])
    // Hashing parameters changed since this digest was made: re-hash with the current ones.
    if (hash.needsReHash(user.password)) {
      user.password = await hashPassword(password, priority)
      await user.save()
    }
    // What the counted key has left after this success (a success gives its attempt back).
    const rateLimit = { limit: counted.requests, remaining: counted.requests, resetIn: 0 }
    // AUTH_PASSKEY_REQUIRED: decided after a right password only, so that the refusal tells
    // nothing a wrong password does not (a wrong one is a 401 above and counts as usual).
    if (!passkey && (await passkeyOnly(user))) {
      await recordLogin({ ...input, userId: user.id, outcome: 'passkey_required' })
      logger.info({ event: 'login.passkey_required', account, userId: user.id, ip }, 'passkey only')
      throw passkeyRequired()
    }
    if (user.hasSecondFactor && !passkey && !device?.remembered) {
      // The password is right (its counts are cleared: they limit password guessing), but nothing
      // that signs in is handed out yet: no JWT, no session, no device token.
      await recordLogin({ ...input, userId: user.id, outcome: 'mfa_required' })
      logger.info({ event: 'login.mfa_required', account, userId: user.id, ip }, 'code required')
      const mfa = await issueMfaToken(user.id, user.tokenVersion)
      return {
        body: { mfaRequired: true as const, ...mfa, methods: user.secondFactors },
        rateLimit,
      }
    }
    const body = await signIn(user, input, device, { logger, outcome: 'succeeded' })
    return { body, rateLimit }
  })
}

/** Whether AUTH_PASSKEY_REQUIRED covers this account: it holds a passkey, and the policy names it. */
async function passkeyOnly(user: User) {
  const required = adminAuthConfig.passkeys.required
  if (required === 'none' || user.passkeyCount === 0) return false
  if (required === 'all') return true
  const { snapshot } = await loadAccessSnapshot(user.id, user.deptId)
  return snapshot.isSuperAdmin
}

/** A wrong password for an existing account: shown to its owner at the next sign-in (/me). */
async function countFailedLogin(userId: number) {
  await db
    .from('users')
    .where('id', userId)
    .update({ failed_logins: db.raw('failed_logins + 1') })
}
