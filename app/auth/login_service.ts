import hash from '@adonisjs/core/services/hash'
import { DateTime } from 'luxon'
import type { Logger } from '@adonisjs/core/logger'
import User from '#models/user'
import { signAdminToken } from '#auth/jwt'
import { consumeCredential } from '#captcha/challenge_store'
import { captchaTokenInvalid, invalidCredentials } from '#exceptions/api_exception'
import {
  assertLoginAllowed,
  recordCaptchaTokenFailure,
  recordCredentialFailure,
  recordLoginSuccess,
} from '#auth/login_limiter'

/**
 * A digest of a random password, verified when the account does not exist so that an unknown
 * account costs the same argon2id work as a wrong password (no account enumeration by timing).
 */
let dummyDigest: Promise<string> | undefined
const getDummyDigest = () => (dummyDigest ??= hash.make(crypto.randomUUID()))

type LoginInput = { account: string; password: string; captchaToken?: string; ip: string }

/**
 * Login, in this order: rate limiter -> consume the one-time credential (whatever happens next)
 * -> find the account -> verify the argon2id digest (a dummy one for unknown accounts) -> status
 * -> sign the JWT. Unknown account, wrong password and disabled account raise the same error.
 * Database errors propagate (5xx); they are never turned into a failed login.
 */
export async function login({ account, password, captchaToken, ip }: LoginInput, logger: Logger) {
  await assertLoginAllowed(ip, account)

  if (!captchaToken || !(await consumeCredential(captchaToken))) {
    await recordCaptchaTokenFailure(ip)
    logger.info({ event: 'login.failed', reason: 'captcha_token', account, ip }, 'login failed')
    throw captchaTokenInvalid()
  }

  const user = await User.findBy('account', account)
  const passwordMatches = await hash.verify(user?.password ?? (await getDummyDigest()), password)
  if (!user || !passwordMatches || !user.isEnabled) {
    await recordCredentialFailure(ip, account)
    logger.info({ event: 'login.failed', reason: 'credentials', account, ip }, 'login failed')
    throw invalidCredentials()
  }

  await recordLoginSuccess(account)
  user.lastLoginAt = DateTime.utc()
  await user.save()
  logger.info({ event: 'login.succeeded', account, userId: user.id, ip }, 'login succeeded')
  return signAdminToken(user.id, user.tokenVersion)
}
