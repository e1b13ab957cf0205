import { randomBytes } from 'node:crypto'
import { createTOTPKeyURI, verifyHOTP } from '@oslojs/otp'
import { decodeBase32IgnorePadding, encodeBase32NoPadding } from '@oslojs/encoding'
import QRCode from 'qrcode'
import encryption from '@adonisjs/core/services/encryption'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import adminAuthConfig from '#config/admin_auth'
import { forgetRememberedDevices } from '#auth/device_tokens'
import { digest, spendOnce } from '#core/secrets'

/**
 * The second factor: TOTP (RFC 6238: SHA-1, 30 s steps, 6 digits, what every authenticator app
 * reads from an otpauth:// URL) through @oslojs/otp, and 10 single-use recovery codes. Storage
 * (migration 1763800000020): the secret encrypted with the app's encryption service (APP_KEY,
 * AES-256-GCM, purpose-bound), pending until the person confirms a code; the last accepted time
 * step, so a code is accepted once; the recovery codes as SHA-256 digests. No HTTP here.
 */
export const TOTP_PERIOD = 30
export const TOTP_DIGITS = 6
/** Steps of clock drift accepted on either side of the current one. */
const DRIFT_STEPS = 1
const SECRET_BYTES = 20
const PURPOSE = 'totp-secret'
export const RECOVERY_CODE_COUNT = 10

const currentStep = (now = Date.now()) => Math.floor(now / 1000 / TOTP_PERIOD)

/** A new secret, what setup shows (base32) and the otpauth:// URL an authenticator app scans. */
export async function newSecret(account: string) {
  const key = new Uint8Array(randomBytes(SECRET_BYTES))
  const otpauthUrl = createTOTPKeyURI(
    adminAuthConfig.twoFactor.issuer,
    account,
    key,
    TOTP_PERIOD,
    TOTP_DIGITS
  )
  return {
    secret: encodeBase32NoPadding(key),
    otpauthUrl,
    qrCode: await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2 }),
  }
}

type SecretRow = { key: Uint8Array; lastUsedStep: number | null }

/** The account's secret (pending or confirmed), decrypted; null when none or unreadable. */
export async function readSecret(
  userId: number,
  client: QueryClientContract = db.connection()
): Promise<SecretRow | null> {
  const row = await client.from('two_factor_secrets').where('user_id', userId).first()
  if (!row) return null
  // null when APP_KEY changed (no key decrypts it): the factor must be reset by an administrator.
  const secret = encryption.decrypt<string>(row.secret, PURPOSE)
  if (!secret) return null
  const lastUsedStep = row.last_used_step === null ? null : Number(row.last_used_step)
  return { key: decodeBase32IgnorePadding(secret), lastUsedStep }
}

/** Stores a (new) pending secret for the account, replacing a pending one. */
export async function storePendingSecret(
  client: QueryClientContract,
  userId: number,
  secret: string
) {
  await client.from('two_factor_secrets').where('user_id', userId).delete()
  await client.table('two_factor_secrets').insert({
    user_id: userId,
    secret: encryption.encrypt(secret, { purpose: PURPOSE }),
    last_used_step: null,
    created_at: Date.now(),
  })
}

/**
 * Spends a TOTP code: the time step it was made for (now, or one step either side for clock
 * drift), if it is later than the last step accepted for the account, is recorded as the last
 * one in a conditional UPDATE, so one code (and any earlier one) is accepted once, by one request
 * of any instance. False for a wrong, replayed or older code.
 */
export async function spendTotp(
  userId: number,
  code: string,
  client: QueryClientContract = db.connection()
): Promise<boolean> {
  const secret = await readSecret(userId, client)
  if (!secret || !/^\d{6}$/.test(code)) return false
  const now = currentStep()
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    if (secret.lastUsedStep !== null && step <= secret.lastUsedStep) continue
    if (!verifyHOTP(secret.key, BigInt(step), TOTP_DIGITS, code)) continue
    return spendOnce(
      client
        .from('two_factor_secrets')
        .where('user_id', userId)
        .where((query) => query.whereNull('last_used_step').orWhere('last_used_step', '<', step)),
      { last_used_step: step }
    )
  }
  return false
}

/**
 * Recovery codes: 16 characters of base32 (80 random bits), shown as 4 groups of 4, stored as
 * SHA-256 digests (why not argon2id: app/core/secrets.ts).
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    encodeBase32NoPadding(new Uint8Array(randomBytes(10)))
      .toLowerCase()
      .match(/.{4}/g)!
      .join('-')
  )
}

/** What a typed code is compared as: case, spaces and dashes do not matter. */
const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '')

export async function storeRecoveryCodes(
  client: QueryClientContract,
  userId: number,
  codes: string[]
) {
  await client.from('two_factor_recovery_codes').where('user_id', userId).delete()
  const now = Date.now()
  await client.table('two_factor_recovery_codes').multiInsert(
    codes.map((code) => ({
      user_id: userId,
      code_hash: digest(normaliseRecoveryCode(code)),
      created_at: now,
    }))
  )
}

/** Spends a recovery code (deleted: one winner under concurrency). False when unknown or used. */
export async function spendRecoveryCode(
  userId: number,
  code: string,
  client: QueryClientContract = db.connection()
): Promise<boolean> {
  return spendOnce(
    client
      .from('two_factor_recovery_codes')
      .where('user_id', userId)
      .where('code_hash', digest(normaliseRecoveryCode(code)))
  )
}

/**
 * Removes the account's second factor (disable by its owner, reset by an administrator): secret,
 * recovery codes, open login challenges, and the "remember this device" flags, so that a factor
 * enrolled later is asked for on every device again.
 */
export async function removeSecondFactor(client: QueryClientContract, userId: number) {
  await client.from('users').where('id', userId).update({ two_factor_confirmed_at: null })
  await client.from('two_factor_secrets').where('user_id', userId).delete()
  await client.from('two_factor_recovery_codes').where('user_id', userId).delete()
  await client.from('mfa_challenges').where('user_id', userId).delete()
  await forgetRememberedDevices(userId, client)
}

/** How a second factor was proven: a TOTP code or a recovery code (null: neither). */
export type SecondFactorProof = 'totp' | 'recovery_code' | null

/** A TOTP code (6 digits) or else a recovery code, spent when right. */
export async function spendSecondFactor(
  userId: number,
  input: { code?: string; recoveryCode?: string }
): Promise<SecondFactorProof> {
  if (input.code !== undefined) return (await spendTotp(userId, input.code)) ? 'totp' : null
  if (input.recoveryCode !== undefined) {
    return (await spendRecoveryCode(userId, input.recoveryCode)) ? 'recovery_code' : null
  }
  return null
}
