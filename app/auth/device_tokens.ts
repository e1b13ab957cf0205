import { createHash, randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { ApiException } from '#exceptions/api_exception'
import { endDeviceSessions } from '#auth/sessions'

/**
 * Device tokens: an owner's key (docs/front-door.md, "The ceiling"). 256 random bits given to the
 * client, stored as a SHA-256 digest; valid for DEVICE_TTL_DAYS, at most MAX_PER_ACCOUNT per
 * account (the least recently used go). A token ROTATES at every sign-in that presents it: the
 * answer carries the next one and the digest it replaced is kept as `previous_hash`. Presenting a
 * superseded token again means two holders (a copy was stolen): every device of the account is
 * revoked, the sessions they signed in end, and the caller gets 401 E_DEVICE_TOKEN_REUSED.
 */
const DEVICE_TTL_DAYS = 90
const MAX_PER_ACCOUNT = 10
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
const newToken = () => randomBytes(32).toString('base64url')

/**
 * `remembered`: the person chose "remember this device" at a successful second step, so a sign-in
 * from it skips the code; it lives on this row and dies with it (logout forgetting the device,
 * revocation, rotation reuse).
 */
export type Device = { id: string; userId: number; remembered: boolean; tokenHash: string }
export type DeviceClient = { ip: string; userAgent?: string }

export const deviceTokenReused = () =>
  new ApiException(401, 'E_DEVICE_TOKEN_REUSED', 'deviceTokenReused')

/**
 * The device a token names, when it is valid and belongs to `account` (case-insensitive); null for
 * an unknown, expired or foreign token. A superseded token of the account revokes every device of
 * it and throws E_DEVICE_TOKEN_REUSED (`onReuse` records it first).
 */
export async function findDevice(
  token: string,
  account: string,
  onReuse?: (userId: number) => Promise<void>
): Promise<Device | null> {
  const digest = sha256(token)
  const row = await db
    .from('device_tokens')
    .join('users', 'users.id', 'device_tokens.user_id')
    .where((query) =>
      query.where('device_tokens.token_hash', digest).orWhere('device_tokens.previous_hash', digest)
    )
    .where('device_tokens.expires_at', '>', Date.now())
    .whereRaw('LOWER(users.account) = ?', [account.toLowerCase()])
    .select(
      'device_tokens.id',
      'device_tokens.user_id',
      'device_tokens.remembered',
      'device_tokens.token_hash'
    )
    .first()
  if (!row) return null
  const userId = Number(row.user_id)
  if (row.token_hash !== digest) {
    await revokeDevices(userId, db.connection(), 'device_token_reused')
    await onReuse?.(userId)
    throw deviceTokenReused()
  }
  return { id: String(row.id), userId, remembered: Boolean(row.remembered), tokenHash: digest }
}

export async function issueDeviceToken(
  userId: number,
  client: DeviceClient,
  remembered = false,
  /** The caller's transaction (a device link spent with it). */
  trx?: QueryClientContract
) {
  const conn = trx ?? db
  const token = newToken()
  const now = Date.now()
  const id = randomBytes(12).toString('base64url')
  await conn.table('device_tokens').insert({
    id,
    user_id: userId,
    token_hash: sha256(token),
    created_at: now,
    last_used_at: now,
    expires_at: now + DEVICE_TTL_DAYS * 86_400_000,
    remembered,
    ...seenFrom(client),
  })
  const stale = await conn
    .from('device_tokens')
    .where('user_id', userId)
    .orderBy('last_used_at', 'desc')
    .offset(MAX_PER_ACCOUNT)
    .select('id')
  if (stale.length) {
    await conn
      .from('device_tokens')
      .whereIn(
        'id',
        stale.map((row) => row.id)
      )
      .delete()
  }
  return { id, token }
}

const seenFrom = (client: DeviceClient) => ({
  ip: client.ip.slice(0, 64),
  user_agent: (client.userAgent ?? '').slice(0, 255),
})

/**
 * A sign-in from the device: its next token (the presented one becomes `previous_hash`), last use
 * and address; `remember`: the person chose to skip the second step on it from now on. The swap is
 * conditional on the presented digest, so of two sign-ins racing with one token only one rotates;
 * the other is a reuse.
 */
export async function rotateDevice(device: Device, client: DeviceClient, remember = false) {
  const token = newToken()
  const updated = await db
    .from('device_tokens')
    .where('id', device.id)
    .where('token_hash', device.tokenHash)
    .update({
      token_hash: sha256(token),
      previous_hash: device.tokenHash,
      last_used_at: Date.now(),
      ...seenFrom(client),
      ...(remember ? { remembered: true } : {}),
    })
  if (Number(Array.isArray(updated) ? updated[0] : updated) !== 1) {
    await revokeDevices(device.userId, db.connection(), 'device_token_reused')
    throw deviceTokenReused()
  }
  return token
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

export type OwnDevice = Awaited<ReturnType<typeof devicesOf>>[number]

/** The owner's devices, most recently used first (GET /api/auth/devices). */
export async function devicesOf(userId: number) {
  const rows = await db
    .from('device_tokens')
    .where('user_id', userId)
    .where('expires_at', '>', Date.now())
    .orderBy('last_used_at', 'desc')
    .orderBy('id', 'asc')
    .select('id', 'created_at', 'last_used_at', 'expires_at', 'ip', 'user_agent', 'remembered')
  return rows.map((row) => ({
    id: String(row.id),
    createdAt: new Date(Number(row.created_at)).toISOString(),
    lastUsedAt: new Date(Number(row.last_used_at)).toISOString(),
    expiresAt: new Date(Number(row.expires_at)).toISOString(),
    ip: (row.ip as string | null) ?? null,
    userAgent: (row.user_agent as string | null) || null,
    remembersSecondFactor: Boolean(row.remembered),
  }))
}

/**
 * Revokes one device of the account (false when it has none with that id): its token stops
 * working and the sessions it signed in end.
 */
export async function revokeDevice(userId: number, id: string) {
  return db.transaction(async (trx) => {
    const deleted = await trx.from('device_tokens').where({ id, user_id: userId }).delete()
    if (Number(Array.isArray(deleted) ? deleted[0] : deleted) === 0) return false
    await endDeviceSessions([id], 'device_revoked', trx)
    return true
  })
}

/**
 * Ends every device of an account: password change or reset, account disabled, a reused token.
 * With a reason, the sessions they signed in end too (a password change ends all sessions itself).
 */
export async function revokeDevices(
  userId: number,
  client: QueryClientContract = db.connection(),
  endSessions?: 'device_token_reused'
) {
  if (endSessions) {
    const rows = await client.from('device_tokens').where('user_id', userId).select('id')
    await endDeviceSessions(
      rows.map((row) => String(row.id)),
      endSessions,
      client
    )
  }
  await client.from('device_tokens').where('user_id', userId).delete()
}
