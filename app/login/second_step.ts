import type { Logger } from '@adonisjs/core/logger'
import emitter from '@adonisjs/core/services/emitter'
import { type ApiException, invalidCredentials, mfaTokenInvalid } from '#exceptions/api_exception'
import { recordLogin } from '#auth/login_log'
import type { LoginOutcome } from '#models/login_log'
import User from '#models/user'
import { spendSecondFactor } from '#auth/two_factor'
import {
  type MfaChallenge,
  failMfaChallenge,
  findMfaChallenge,
  spendMfaChallenge,
} from '#auth/mfa_tokens'
import { type AssertionInput, verifyAssertion } from '#auth/passkeys'
import { assertAllowed, countFailure, giveBack, settleFailure, settleSuccess } from '#auth/limits'
import { mfaAccountIpKey, mfaCeilingKey, mfaDeviceKey, mfaIpKey } from '#auth/login_limiter'
import type { Client } from '#core/client'
import { deviceOf, limited, refusedPasskey, reserved, signIn } from '#login/sign_in'

export type SecondStepInput = Client & {
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
export async function liveMfaChallenge(input: Client & { mfaToken: string }, logger: Logger) {
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

/** Second login step with a passkey (POST /api/auth/login/passkey with an mfaToken). */
export const passkeySecondStep = (
  input: SecondStepInput & { response: AssertionInput },
  logger: Logger
) => secondStep(input, logger, passkeyCheck(input.response), true)

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

  return reserved(logger, attempt, keys, counted, async (reservation) => {
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
