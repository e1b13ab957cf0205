import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { generateHOTP } from '@oslojs/otp'
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { DateTime } from 'luxon'
import type User from '#models/user'
import adminAuthConfig from '#config/admin_auth'
import {
  TOTP_DIGITS,
  TOTP_PERIOD,
  newRecoveryCodes,
  newSecret,
  storePendingSecret,
  storeRecoveryCodes,
} from '#auth/two_factor'
import { TEST_PASSWORD, freshCredential } from '#tests/helpers/auth'

/**
 * The second factor from the client's side: codes computed as an authenticator app would (the
 * library's own HOTP over the secret), and the two login steps.
 */

/** The TOTP code of `secret` (base32) for the current time step, or `steps` away from it. */
export function totp(secret: string, steps = 0) {
  const step = Math.floor(Date.now() / 1000 / TOTP_PERIOD) + steps
  return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), TOTP_DIGITS)
}

/**
 * An account with a confirmed second factor, written as confirm writes it but without spending
 * a time step, so a test can use the codes of the previous, current and next steps.
 */
export async function enrolled(user: User) {
  const { secret } = await newSecret(user.account)
  const recoveryCodes = newRecoveryCodes()
  await db.transaction(async (trx) => {
    await storePendingSecret(trx, user.id, secret)
    await storeRecoveryCodes(trx, user.id, recoveryCodes)
  })
  user.twoFactorConfirmedAt = DateTime.utc()
  await user.save()
  return { secret, recoveryCodes }
}

/** POST /api/auth/login with the password and a fresh credential. */
export function passwordStep(client: ApiClient, user: User, extra: { deviceToken?: string } = {}) {
  return freshCredential().then((captchaToken) =>
    client
      .post('/api/auth/login')
      .json({ account: user.account, password: TEST_PASSWORD, captchaToken, ...extra })
  )
}

/** The mfaToken a right password earns (the account has a second factor). */
export async function mfaTokenFor(client: ApiClient, user: User) {
  const response = await passwordStep(client, user)
  response.assertStatus(200)
  return response.body().data.mfaToken as string
}

/** POST /api/auth/login/2fa. */
export function secondStep(client: ApiClient, body: Record<string, unknown>) {
  return client.post('/api/auth/login/2fa').json(body)
}

/** Runs `work` with AUTH_REQUIRE_2FA set to `value` (read on each request). */
export async function requiring2fa<T>(
  value: 'none' | 'super_admin' | 'all',
  work: () => Promise<T>
) {
  const before = adminAuthConfig.twoFactor.required
  adminAuthConfig.twoFactor.required = value
  try {
    return await work()
  } finally {
    adminAuthConfig.twoFactor.required = before
  }
}
