import hash from '@adonisjs/core/services/hash'
import { DateTime } from 'luxon'
import type { Logger } from '@adonisjs/core/logger'
import { signAdminToken } from '#auth/jwt'
import { consumeCredential, credentialLevel } from '#captcha/challenge_store'
import { ApiException, captchaTokenInvalid, invalidCredentials } from '#exceptions/api_exception'
import { LOCKED_ACCOUNT_LEVEL } from '#captcha/difficulty'
import { hashGate } from '#core/cpu_gates'
import { cache } from '#core/cache'
import { findAccount, hashPassword } from '#auth/passwords'
import { type Device, findDevice, issueDeviceToken, rotateDevice } from '#auth/device_tokens'
import { createSession } from '#auth/sessions'
import { recordLogin } from '#auth/login_log'
import type { LoginOutcome } from '#models/login_log'
import User from '#models/user'
import { spendSecondFactor } from '#auth/two_factor'
import {
  type MfaChallenge,
  failMfaChallenge,
  findMfaChallenge,
  issueMfaToken,
  spendMfaChallenge,
} from '#auth/mfa_tokens'
import {
  type Assertion,
  type AssertionInput,
  ceilingOptions,
  passkeyInvalid,
  secondStepOptions,
  signInOptions,
  unlockBinding,
  verifyAssertion,
  verifySignIn,
} from '#auth/passkeys'
import adminAuthConfig from '#config/admin_auth'
import { loadAccessSnapshot } from '#auth/access_snapshot'
import db from '@adonisjs/lucid/services/db'
import emitter from '@adonisjs/core/services/emitter'
import {
  type Refusal,
  assertAllowed,
  consume,
  countFailure,
  giveBack,
  oneAtATime,
  reserveAttempt,
  settleFailure,
  settleSuccess,
} from '#auth/limits'
import {
  accountKey,
  ceilingKey,
  deviceKey,
  ipKey,
  mfaAccountIpKey,
  mfaCeilingKey,
  mfaDeviceKey,
  mfaIpKey,
  passkeyKey,
  passkeyOptionsKey,
} from '#auth/login_limiter'

/**
 * A digest of a random password, verified when the account does not exist so that an unknown
 * account costs the same argon2id work as a wrong password (no account enumeration by timing).
 */
let dummyDigest: Promise<string> | undefined
const getDummyDigest = () => (dummyDigest ??= hashPassword(crypto.randomUUID()))

type Client = { ip: string; userAgent?: string }

/** An account's ceiling was reached by this failure (`windowEndsIn`: seconds left in its window). */
export type CeilingReached = { userId: number; ip: string; windowEndsIn: number }
/** A right password's second step was refused (a wrong code or a refused passkey): from `ip`. */
export type SecondStepFailed = { userId: number; ip: string }
declare module '@adonisjs/core/types' {
  interface EventsList {
    'auth:ceiling_reached': CeilingReached
    'auth:second_step_failed': SecondStepFailed
  }
}
type LoginInput = Client & {
  account: string
  password: string
  captchaToken?: string
  deviceToken?: string
  /** An assertion for the options of POST /api/auth/login/passkey/options { account }. */
  passkey?: AssertionInput
}

/**
 * Refused (429) attempts write one warn line, and one login-log row, per refusing key per minute,
 * with how many it stands for: a flood of refusals, from however many addresses, stays as cheap as
 * the limiter makes it (an account's ceiling is one key whatever the addresses).
 */
const refusedSince = cache<string, { until: number; count: number }>('login-refused', {
  max: 10_000,
})
async function logRefused(logger: Logger, key: string, input: Client & { account: string }) {
  const now = Date.now()
  const seen = refusedSince.get(key)
  if (seen && seen.until > now) {
    seen.count++
    return
  }
  refusedSince.set(key, { until: now + 60_000, count: 0 })
  const refusedBefore = seen?.count ?? 0
  logger.warn(
    { event: 'login.throttled', key, account: input.account, ip: input.ip, refusedBefore },
    'login throttled'
  )
  await recordLogin({ ...input, outcome: 'throttled' })
}

async function limited<T>(logger: Logger, input: Client & { account: string }, work: () => T) {
  try {
    return await work()
  } catch (error) {
    const refusedBy = (error as Refusal).refusedBy
    if (refusedBy) await logRefused(logger, refusedBy, input)
    throw error
  }
}

/**
 * The device of a presented token (null without one, for an unknown or foreign one, or for the
 * device's own race with itself); a reused token is recorded and refused (device_tokens.ts).
 */
export const deviceOf = (token: string | undefined, account: string, client: Client) =>
  token ? findDevice(token, account, { ...client, account }) : null

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

const refusedPasskey = (assertion: Exclude<Assertion, { passkey: unknown }>) =>
  passkeyInvalid(
    assertion.refused === 'passkey_counter_regressed' ? 'passkeyCounterRegressed' : 'passkeyInvalid'
  )

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

  await limited(logger, input, () => assertAllowed(keys))
  return oneAtATime(counted.key, async () => {
    const reservation = await limited(logger, input, () => reserveAttempt(keys))

    // A passkey's options were paid with a captcha credential (spent then, bound to this account).
    const paid = passkey
      ? { account: null }
      : captchaToken
        ? await consumeCredential(captchaToken, ip)
        : null
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
      throw new ApiException(403, 'E_PASSKEY_REQUIRED', 'passkeyRequired')
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

/**
 * The end of every successful login (one step, or the second): last login time, the device token
 * (a known device is touched, a new one issued; `remember` marks it to skip the second step), a
 * session row, the login log row and the JWT.
 */
async function signIn(
  user: User,
  client: Client & { account: string },
  device: Device | null,
  options: { logger: Logger; outcome: LoginOutcome; remember?: boolean }
) {
  const { id: deviceId, token: deviceToken } = device
    ? await rotateDevice(device, client, options.remember)
    : await issueDeviceToken(user.id, client, options.remember)
  // One statement: the previous sign-in and the failures since it move into their own columns.
  await db
    .from('users')
    .where('id', user.id)
    .update({
      previous_login_at: db.raw('last_login_at'),
      previous_login_ip: db.raw('last_login_ip'),
      failed_before_login: db.raw('failed_logins'),
      failed_logins: 0,
      last_login_at: DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat),
      last_login_ip: client.ip.slice(0, 64),
    })
  const sessionId = await createSession(user.id, client, undefined, deviceId)
  await recordLogin({ ...client, userId: user.id, outcome: options.outcome })
  options.logger.info(
    { event: 'login.succeeded', account: client.account, userId: user.id, ip: client.ip },
    'login succeeded'
  )
  return { ...(await signAdminToken(user.id, user.tokenVersion, sessionId)), deviceToken }
}

export const mfaTokenInvalid = () => new ApiException(400, 'E_MFA_TOKEN_INVALID', 'mfaTokenInvalid')

type SecondStepInput = Client & {
  mfaToken: string
  deviceToken?: string
  rememberDevice?: boolean
}

/**
 * What a second factor came to, checked in its turn against the live mfa challenge: the login-log
 * outcome of a success, or of a refusal with the error answered.
 */
type FactorCheck = (
  userId: number,
  challenge: MfaChallenge
) => Promise<{ outcome: LoginOutcome; refusal?: ApiException }>

/** A TOTP code (spent: its time step) or a recovery code (spent); 401 when wrong. */
const codeCheck =
  (input: { code?: string; recoveryCode?: string }): FactorCheck =>
  async (userId) => {
    const proof = await spendSecondFactor(userId, input)
    if (!proof) return { outcome: 'mfa_failed', refusal: invalidCredentials('invalidCode') }
    return { outcome: proof === 'recovery_code' ? 'recovery_code_used' : 'succeeded' }
  }

/** A passkey assertion for the challenge of the mfaToken (spent); 400 E_PASSKEY_INVALID. */
const passkeyCheck =
  (response: AssertionInput): FactorCheck =>
  async (userId, challenge) => {
    const assertion = await verifyAssertion('mfa', challenge.hash, response, { userId })
    if ('passkey' in assertion) return { outcome: 'succeeded' }
    const outcome =
      assertion.refused === 'passkey_counter_regressed' ? assertion.refused : 'mfa_failed'
    return { outcome, refusal: refusedPasskey(assertion) }
  }

/**
 * The live challenge of an mfaToken and its account; else the address pays (guessed or dead
 * tokens cost it, as a bad captcha credential does at step one) and 400 E_MFA_TOKEN_INVALID.
 */
async function liveMfaChallenge(input: Client & { mfaToken: string }, logger: Logger) {
  const addressKey = mfaIpKey(input.ip)
  await limited(logger, { ...input, account: '' }, () => assertAllowed([addressKey]))
  const challenge = await findMfaChallenge(input.mfaToken)
  const user = challenge ? await User.find(challenge.userId) : null
  if (!challenge || !user || !user.isEnabled || user.tokenVersion !== challenge.tokenVersion) {
    await countFailure(addressKey)
    await recordLogin({
      ...input,
      account: user?.account ?? '',
      userId: user?.id ?? null,
      outcome: 'mfa_token_invalid',
    })
    throw mfaTokenInvalid()
  }
  return { challenge, user }
}

/** Second login step with a TOTP or recovery code (POST /api/auth/login/2fa). */
export const loginSecondStep = (
  input: SecondStepInput & { code?: string; recoveryCode?: string },
  logger: Logger
) => secondStep(input, logger, codeCheck(input), false)

/**
 * POST /api/auth/login/passkey: the second login step with an mfaToken, or without one a sign-in
 * with a passkey alone (passkeySignIn).
 */
export const loginWithPasskey = (
  input: Omit<SecondStepInput, 'mfaToken'> & { mfaToken?: string; response: AssertionInput },
  logger: Logger
) =>
  input.mfaToken === undefined
    ? passkeySignIn(input, logger)
    : secondStep({ ...input, mfaToken: input.mfaToken }, logger, passkeyCheck(input.response), true)

/**
 * A sign-in with a passkey alone: the assertion answers the signed challenge of this address
 * (signInOptions) and names its passkey, hence the account. It is both factors (user verification
 * required): no password, no captcha, no second step; it is an owner's key, so the account's
 * ceiling does not stop it (and is left as it is). A refused assertion counts against the address.
 * Account state applies as at the password login: disabled is the same 401; a forced password
 * change or a missing second factor are the guard's (the session carries the tokenVersion).
 */
async function passkeySignIn(
  input: Client & { response: AssertionInput; deviceToken?: string },
  logger: Logger
) {
  const addressLimit = ipKey(input.ip)
  const anonymous = { ...input, account: '' }
  await limited(logger, anonymous, () => assertAllowed([addressLimit]))
  const assertion = await verifySignIn(input.response, input.ip)
  if (!('passkey' in assertion)) {
    await countFailure(addressLimit)
    const owner = assertion.userId === null ? null : await User.find(assertion.userId)
    logger.info(
      { event: 'login.failed', reason: assertion.refused, ip: input.ip },
      'passkey sign-in failed'
    )
    await recordLogin({
      ...anonymous,
      account: owner?.account ?? '',
      userId: owner?.id ?? null,
      outcome: assertion.refused,
    })
    throw refusedPasskey(assertion)
  }
  const user = await User.find(assertion.passkey.userId)
  const client = { ...input, account: user?.account ?? '' }
  if (!user || !user.isEnabled) {
    logger.info({ event: 'login.failed', reason: 'disabled', ip: input.ip }, 'login failed')
    await recordLogin({ ...client, userId: user?.id ?? null, outcome: 'account_disabled' })
    throw invalidCredentials()
  }
  const device = await deviceOf(input.deviceToken, user.account, client)
  const body = await signIn(user, client, device, { logger, outcome: 'passkey_login' })
  const { requests } = addressLimit
  return { body, rateLimit: { limit: requests, remaining: requests, resetIn: 0 } }
}

/**
 * Authentication options (POST /api/auth/login/passkey/options): with an mfaToken, the account's
 * passkeys for the second step; with an account and a captcha credential (spent, bound to the
 * address and the account), options for the ceiling, the same for every account name; with
 * neither, options for a sign-in with a passkey alone (nothing stored; limited per address).
 */
export async function passkeyOptions(
  input: Client & { mfaToken?: string; account?: string; captchaToken?: string },
  logger: Logger
) {
  if (input.mfaToken !== undefined) {
    const { challenge, user } = await liveMfaChallenge(
      { ...input, mfaToken: input.mfaToken },
      logger
    )
    return secondStepOptions(user.id, challenge.hash)
  }
  if (input.account === undefined && input.captchaToken === undefined) {
    await limited(logger, { ...input, account: '' }, () => consume(passkeyOptionsKey(input.ip)))
    return signInOptions(input.ip)
  }
  const account = input.account ?? ''
  const attempt = { ...input, account }
  await limited(logger, attempt, () => assertAllowed([ipKey(input.ip)]))
  const paid = input.captchaToken ? await consumeCredential(input.captchaToken, input.ip) : null
  if (!paid || (paid.account !== null && paid.account !== account.toLowerCase())) {
    await countFailure(ipKey(input.ip))
    await recordLogin({ ...attempt, outcome: 'captcha_token_invalid' })
    throw captchaTokenInvalid()
  }
  return ceilingOptions(account, input.ip)
}

/**
 * Second login step: the mfaToken a right password earned -> limits (per account and address,
 * or per (account, device) with a valid device token; keys of their own, login_limiter.ts) ->
 * the factor (a TOTP code, accepted once: its time step is spent; a recovery code, spent; or a
 * passkey assertion) -> the token is spent -> as a login. A refused factor counts against the
 * keys and the token (dead at the 5th), and the owner is told the password is known
 * (`auth:second_step_failed`, start/events.ts). `ownerKey`: the factor is a passkey, an owner's
 * key that passes the account's second-step ceiling as a device token does.
 */
async function secondStep(
  input: SecondStepInput,
  logger: Logger,
  check: FactorCheck,
  ownerKey: boolean
) {
  const { ip } = input
  const { challenge, user } = await liveMfaChallenge(input, logger)
  const account = user.account
  const device = await deviceOf(input.deviceToken, account, input)
  // Wrong codes count per (account, address) and the account's second-step ceiling: someone
  // else's wrong codes from another address never lock out the owner's mfaToken or device. The
  // ceiling holds keyless code guessing only: a device token or a passkey (whose assertion no one
  // guesses) passes it, as at the password step.
  const keys = device
    ? [mfaDeviceKey(device.id)]
    : [mfaIpKey(ip), mfaAccountIpKey(user.id, ip), ...(ownerKey ? [] : [mfaCeilingKey(user.id)])]
  const counted = device ? keys[0] : keys[1]
  const attempt = { ...input, account }

  await limited(logger, attempt, () => assertAllowed(keys))
  return oneAtATime(counted.key, async () => {
    const reservation = await limited(logger, attempt, () => reserveAttempt(keys))
    // Attempts that waited their turn behind the one that killed or spent the token stop here.
    if (!(await findMfaChallenge(input.mfaToken))) {
      await giveBack(reservation)
      throw mfaTokenInvalid()
    }
    const { outcome, refusal } = await check(user.id, challenge)
    if (refusal) {
      await settleFailure(reservation)
      await failMfaChallenge(challenge)
      emitter.emit('auth:second_step_failed', { userId: user.id, ip })
      logger.info({ event: 'login.mfa_failed', account, ip, outcome }, 'second step failed')
      await recordLogin({ ...attempt, userId: user.id, outcome })
      throw refusal
    }
    if (!(await spendMfaChallenge(challenge))) {
      await giveBack(reservation)
      throw mfaTokenInvalid()
    }
    await settleSuccess(reservation, [counted, mfaCeilingKey(user.id)])
    const body = await signIn(user, attempt, device, {
      logger,
      outcome,
      remember: input.rememberDevice === true,
    })
    return { body, rateLimit: { limit: counted.requests, remaining: counted.requests, resetIn: 0 } }
  })
}
