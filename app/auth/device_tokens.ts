import { createHash, randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/**
 * Device tokens (migration 1763800000010): 256 random bits given to the client once, stored as a
 * SHA-256 digest. Valid for DEVICE_TTL_DAYS, at most MAX_PER_ACCOUNT per account (the oldest go).
 */
const DEVICE_TTL_DAYS = 90
const MAX_PER_ACCOUNT = 10
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/**
 * `remembered`: the person chose "remember this device" at a successful second step, so a login
 * from it skips the code (app/auth/login_service.ts); never set otherwise.
 */
export type Device = { id: string; userId: number; remembered: boolean }

/** The device a token names, when it is valid and belongs to `account` (case-insensitive). */
export async function findDevice(token: string, account: string): Promise<Device | null> {
  const row = await db
    .from('device_tokens')
    .join('users', 'users.id', 'device_tokens.user_id')
    .where('device_tokens.token_hash', sha256(token))
    .where('device_tokens.expires_at', '>', Date.now())
    .whereRaw('LOWER(users.account) = ?', [account.toLowerCase()])
    .select('device_tokens.id', 'device_tokens.user_id', 'device_tokens.remembered')
    .first()
  return row
    ? { id: String(row.id), userId: Number(row.user_id), remembered: Boolean(row.remembered) }
    : null
}

export async function issueDeviceToken(userId: number, remembered = false): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  const now = Date.now()
  await db.table('device_tokens').insert({
    id: randomBytes(12).toString('base64url'),
    user_id: userId,
    token_hash: sha256(token),
    created_at: now,
    last_used_at: now,
    expires_at: now + DEVICE_TTL_DAYS * 86_400_000,
    remembered,
  })
  const stale = await db
    .from('device_tokens')
    .where('user_id', userId)
    .orderBy('last_used_at', 'desc')
    .offset(MAX_PER_ACCOUNT)
    .select('id')
  if (stale.length) {
    await db
      .from('device_tokens')
      .whereIn(
        'id',
        stale.map((row) => row.id)
      )
      .delete()
  }
  return token
}

/** A login from the device; `remember`: the person chose to skip the second step on it from now on. */
export async function touchDevice(device: Device, remember = false) {
  await db
    .from('device_tokens')
    .where('id', device.id)
    .update({ last_used_at: Date.now(), ...(remember ? { remembered: true } : {}) })
}

/** No device of the account skips the second step any more (second factor disabled or reset). */
export async function forgetRememberedDevices(userId: number, client: QueryClientContract) {
  await client.from('device_tokens').where('user_id', userId).update({ remembered: false })
}

/** The device ids of an account (unlock clears their counters too). */
export async function deviceIdsOf(userId: number): Promise<string[]> {
  const rows = await db.from('device_tokens').where('user_id', userId).select('id')
  return rows.map((row) => String(row.id))
}

/** Ends every device of an account: password change or reset, account disabled. */
export async function revokeDevices(userId: number, client: QueryClientContract = db.connection()) {
  await client.from('device_tokens').where('user_id', userId).delete()
}
