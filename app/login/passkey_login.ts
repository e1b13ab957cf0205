import type { Logger } from '@adonisjs/core/logger'
import { spendCredential } from '#captcha/captcha_service'
import { captchaTokenInvalid, invalidCredentials } from '#exceptions/api_exception'
import { recordLogin } from '#auth/login_log'
import User from '#models/user'
import {
  type AssertionInput,
  ceilingOptions,
  secondStepOptions,
  signInOptions,
  verifySignIn,
} from '#auth/passkeys'
import { assertAllowed, consume, countFailure } from '#auth/limits'
import { ipKey, passkeyOptionsKey } from '#auth/login_limiter'
import type { Client } from '#core/client'
import { deviceOf, limited, refusedPasskey, signIn } from '#login/sign_in'
import { type SecondStepInput, liveMfaChallenge, passkeySecondStep } from '#login/second_step'

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
    : passkeySecondStep({ ...input, mfaToken: input.mfaToken }, logger)

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
  if (!(await spendCredential(input.captchaToken, input.ip, account))) {
    await countFailure(ipKey(input.ip))
    await recordLogin({ ...attempt, outcome: 'captcha_token_invalid' })
    throw captchaTokenInvalid()
  }
  return ceilingOptions(account, input.ip)
}
