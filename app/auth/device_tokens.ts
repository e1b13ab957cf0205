import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import logger from '@adonisjs/core/services/logger'
import { deviceTokenReused } from '#exceptions/api_exception'
import { endDeviceSessions } from '#auth/sessions'
import { recordLogin } from '#auth/login_log'
import { addressKey } from '#core/address_key'
import type { Client } from '#core/client'
import { digest, newSecret, rowsChanged, spendOnce } from '#core/secrets'

/**
 * Device tokens: an owner's key (docs/front-door.md, "The ceiling"). A secret given to the
 * client, stored as its digest (app/core/secrets.ts); valid for DEVICE_TTL_DAYS, at most MAX_PER_ACCOUNT per
 * account (the least recently used go). A token ROTATES at every sign-in that presents it: the
 * answer carries the next one and the digest it replaced is kept as `previous_hash`. Presenting a
 * superseded token again means two holders (a copy was stolen): every device of the account is
 * revoked, the sessions they signed in end, and the caller gets 401 E_DEVICE_TOKEN_REUSED. The one
 * exception is a race of the device with itself (RACE_GRACE_MS, below). Every revocation writes
 * its login-log row and warn line here (`revoked`), whatever asked for it.
 */
const DEVICE_TTL_DAYS = 90
/**
 * Two tabs (or a double submit) of one browser signing in with one token at once: the loser
 * presents the digest the winner just superseded. Within this long after the rotation, from the
 * rotation's own address key and user agent, that is the same device, not a copy: no revocation,
 * and the loser goes on without an owner's key (docs/front-door.md, "Device tokens").
 */
export const RACE_GRACE_MS = 10_000
const MAX_PER_ACCOUNT = 10

/**
 * `remembered`: the person chose "remember this device" at a successful second step, so a sign-in
 * from it skips the code; it lives on this row and dies with it (logout forgetting the device,
 * revocation, rotation reuse).
 */
export type Device = { id: string; userId: number; remembered: boolean; tokenHash: string }

/**
 * The device a token names, when it is valid and belongs to `account` (case-insensitive); null for
 * an unknown, expired or foreign token. A superseded token of the account revokes every device of
 * it and throws E_DEVICE_TOKEN_REUSED (`onReuse` records it first).
 */
export async function findDevice(
  token: string,
  account: string,
  client: Client & { account?: string }
): Promise<Device | null> {
  const presented = digest(token)
  const row = await db
    .from('device_tokens')
    .join('users', 'users.id', 'device_tokens.user_id')
    .where((query) =>
      query
        .where('device_tokens.token_hash', presented)
        .orWhere('device_tokens.previous_hash', presented)
    )
    .where('device_tokens.expires_at', '>', Date.now())
    .whereRaw('LOWER(users.account) = ?', [account.toLowerCase()])
    .select(
      'device_tokens.id',
      'device_tokens.user_id',
      'device_tokens.remembered',
      'device_tokens.token_hash',
      'device_tokens.last_used_at',
      'device_tokens.ip',
      'device_tokens.user_agent'
    )
    .first()
  if (!row) return null
  const userId = Number(row.user_id)
  if (row.token_hash !== presented) {
    if (sameDeviceRace(row, client)) {
      await recordRace(userId, String(row.id), client)
      return null
    }
    const revocation = { reason: 'device_token_reused' as const, ...client }
    await db.transaction((trx) => revokeDevices(userId, trx, revocation))
    throw deviceTokenReused()
  }
  return { id: String(row.id), userId, remembered: Boolean(row.remembered), tokenHash: presented }
}

export async function issueDeviceToken(
  userId: number,
  client: Client,
  remembered = false,
  /** The caller's transaction (a device link spent with it). */
  trx?: QueryClientContract
) {
  const conn = trx ?? db
  const token = newSecret()
  const now = Date.now()
  const id = newSecret(12)
  await conn.table('device_tokens').insert({
    id,
    user_id: userId,
    token_hash: digest(token),
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

const seenFrom = (client: Client) => ({
  ip: client.ip.slice(0, 64),
  user_agent: (client.userAgent ?? '').slice(0, 255),
})

type RotatedRow = { last_used_at: number | string; ip: string | null; user_agent: string | null }

/** The device's own race (RACE_GRACE_MS): just rotated, from the same address key and agent. */
function sameDeviceRace(row: RotatedRow, client: Client) {
  const seen = seenFrom(client)
  return (
    Date.now() - Number(row.last_used_at) <= RACE_GRACE_MS &&
    row.ip !== null &&
    addressKey(row.ip) === addressKey(seen.ip) &&
    (row.user_agent ?? '') === seen.user_agent
  )
}

async function recordRace(userId: number, deviceId: string, client: Client & { account?: string }) {
  logger.warn(
    { event: 'device_token.raced', userId, deviceId, ip: client.ip },
    'device token presented again just after its rotation, from the same browser: not revoked'
  )
  await recordLogin({
    ...client,
    account: client.account ?? (await accountOf(userId)),
    userId,
    outcome: 'device_token_raced',
  })
}

async function accountOf(userId: number) {
  const row = await db.from('users').where('id', userId).select('account').first()
  return String(row?.account ?? '')
}

/**
 * A sign-in from the device: its next token (the presented one becomes `previous_hash`), last use
 * and address; `remember`: the person chose to skip the second step on it from now on. The swap is
 * conditional on the presented digest, so of two sign-ins racing with one token only one rotates;
 * the other, when it is the device's own race (RACE_GRACE_MS), gets a device of its own (its token
 * was the current one when it was checked), else it is a reuse.
 */
export async function rotateDevice(
  device: Device,
  client: Client & { account?: string },
  remember = false
): Promise<{ id: string; token: string }> {
  const token = newSecret()
  const rotated = await spendOnce(
    db.from('device_tokens').where('id', device.id).where('token_hash', device.tokenHash),
    {
      token_hash: digest(token),
      previous_hash: device.tokenHash,
      last_used_at: Date.now(),
      ...seenFrom(client),
      ...(remember ? { remembered: true } : {}),
    }
  )
  if (!rotated) {
    const row = await db
      .from('device_tokens')
      .where('id', device.id)
      .where('previous_hash', device.tokenHash)
      .select('last_used_at', 'ip', 'user_agent')
      .first()
    if (row && sameDeviceRace(row, client)) {
      await recordRace(device.userId, device.id, client)
      return issueDeviceToken(device.userId, client, remember)
    }
    const revocation = { reason: 'device_token_reused' as const, ...client }
    await db.transaction((trx) => revokeDevices(device.userId, trx, revocation))
    throw deviceTokenReused()
  }
  return { id: device.id, token }
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
 * Why devices are revoked, and from where (the login-log row's address; '' when no request asked,
 * a command). `device_token_reused` also ends the sessions they signed in (a password change or a
 * disabled account ends every session itself).
 */
export type RevokeReason =
  'logout' | 'device_deleted' | 'password_changed' | 'account_disabled' | 'device_token_reused'
export type Revocation = Partial<Client> & { reason: RevokeReason; account?: string }

const OUTCOME = {
  logout: 'device_revoked',
  device_deleted: 'device_revoked',
  password_changed: 'devices_revoked',
  account_disabled: 'devices_revoked',
  device_token_reused: 'device_token_reused',
} as const

/**
 * The one record of a revocation: a warn line and a login-log row, after the caller's transaction
 * commits (nothing is written for a rollback, or when there was nothing to revoke).
 */
async function revoked(
  userId: number,
  ids: string[],
  revocation: Revocation,
  client: QueryClientContract
) {
  if (ids.length === 0) return
  const write = async () => {
    const { reason, account, ip = '', userAgent } = revocation
    logger.warn(
      { event: 'device_token.revoked', reason, userId, devices: ids.length, ip },
      reason === 'device_token_reused'
        ? 'superseded device token presented: every device of the account revoked'
        : 'device tokens revoked'
    )
    await recordLogin({
      account: account ?? (await accountOf(userId)),
      ip,
      userAgent,
      userId,
      outcome: OUTCOME[reason],
    })
  }
  if (client.isTransaction) (client as TransactionClientContract).after('commit', write)
  else await write()
}

/**
 * Revokes one device of the account (false when it has none with that id): its token stops
 * working and the sessions it signed in end.
 */
export async function revokeDevice(userId: number, id: string, revocation: Revocation) {
  return db.transaction(async (trx) => {
    const deleted = await trx.from('device_tokens').where({ id, user_id: userId }).delete()
    if (rowsChanged(deleted) === 0) return false
    await endDeviceSessions([id], 'device_revoked', trx)
    await revoked(userId, [id], revocation, trx)
    return true
  })
}

/**
 * Ends every device of an account: password change or reset, account disabled, a reused token.
 */
export async function revokeDevices(
  userId: number,
  client: QueryClientContract,
  revocation: Revocation
) {
  const rows = await client.from('device_tokens').where('user_id', userId).select('id')
  const ids = rows.map((row) => String(row.id))
  if (revocation.reason === 'device_token_reused') {
    await endDeviceSessions(ids, 'device_token_reused', client)
  }
  await client.from('device_tokens').where('user_id', userId).delete()
  await revoked(userId, ids, revocation, client)
}
