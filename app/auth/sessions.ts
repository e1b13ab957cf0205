import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import adminAuthConfig from '#config/admin_auth'
import type { Client } from '#core/client'
import { newSecret, spendOnce } from '#core/secrets'

/**
 * Admin sessions (migration 1763800000014): one row per login, its id carried by the JWT as
 * `jti`. The guard reads the row with the account in its one query, so ending a session (logout,
 * force logout) or all of an account's (password change or reset, account disabled) applies to
 * the very next request. Times are epoch milliseconds.
 */

/** last_seen_at is written at most this often per session: no write per request. */
export const LAST_SEEN_INTERVAL_MS = 60_000

/** 128 random bits, base64url: 22 characters. */
export const SESSION_ID = /^[A-Za-z0-9_-]{22}$/

export type EndReason =
  | 'logout'
  | 'forced'
  | 'password_changed'
  | 'account_disabled'
  | 'two_factor_reset'
  | 'device_revoked'
  | 'device_token_reused'

/** `deviceId`: the device token it signed in with (revoking the device ends the session). */
export async function createSession(
  userId: number,
  client: Client,
  connection: QueryClientContract = db.connection(),
  deviceId: string | null = null
) {
  const id = newSecret(16)
  const now = Date.now()
  await connection.table('admin_sessions').insert({
    id,
    user_id: userId,
    ip: client.ip.slice(0, 64),
    user_agent: (client.userAgent ?? '').slice(0, 255),
    device_id: deviceId,
    created_at: now,
    last_seen_at: now,
    expires_at: now + adminAuthConfig.jwt.ttl * 1000,
  })
  return id
}

/** The guard's verdict on the session columns it read with the account row. */
export function sessionIsLive(row: {
  session_expires_at: string | number | null
  session_ended_at: string | number | null
}) {
  return (
    row.session_expires_at !== null &&
    row.session_ended_at === null &&
    Number(row.session_expires_at) > Date.now()
  )
}

/** Coarse last-seen: one UPDATE per session per LAST_SEEN_INTERVAL_MS at most. */
export async function touchSession(id: string, lastSeenAt: string | number) {
  const now = Date.now()
  if (now - Number(lastSeenAt) < LAST_SEEN_INTERVAL_MS) return
  await db
    .from('admin_sessions')
    .where('id', id)
    .where('last_seen_at', '<', now - LAST_SEEN_INTERVAL_MS)
    .update({ last_seen_at: now })
}

/** Ends one session if it is live; returns whether it was. */
export async function endSession(
  id: string,
  reason: EndReason,
  connection: QueryClientContract = db.connection()
) {
  return spendOnce(connection.from('admin_sessions').where('id', id).whereNull('ended_at'), {
    ended_at: Date.now(),
    end_reason: reason,
  })
}

/** Ends every live session of an account (password change or reset, account disabled). */
export async function endSessionsOf(
  userId: number,
  reason: EndReason,
  connection: QueryClientContract = db.connection()
) {
  await connection
    .from('admin_sessions')
    .where('user_id', userId)
    .whereNull('ended_at')
    .update({ ended_at: Date.now(), end_reason: reason })
}

/** Ends the live sessions signed in with these devices (the devices were revoked). */
export async function endDeviceSessions(
  deviceIds: string[],
  reason: EndReason,
  connection: QueryClientContract = db.connection()
) {
  if (deviceIds.length === 0) return
  await connection
    .from('admin_sessions')
    .whereIn('device_id', deviceIds)
    .whereNull('ended_at')
    .update({ ended_at: Date.now(), end_reason: reason })
}

/** The device a live session of the account signed in with (logout can forget it). */
export async function deviceOfSession(id: string) {
  const row = await db.from('admin_sessions').where('id', id).select('device_id').first()
  return (row?.device_id as string | null | undefined) ?? null
}

/** An account's live sessions, most recently seen first. */
export async function liveSessionsOf(userId: number) {
  const { default: AdminSession } = await import('#models/admin_session')
  return AdminSession.query()
    .where('user_id', userId)
    .whereNull('ended_at')
    .where('expires_at', '>', Date.now())
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'asc')
}

/** Ends one of the account's own sessions; false when it has no such live session. */
export async function endOwnSession(userId: number, id: string) {
  if (!SESSION_ID.test(id)) return false
  return spendOnce(
    db
      .from('admin_sessions')
      .where('id', id)
      .where('user_id', userId)
      .whereNull('ended_at')
      .where('expires_at', '>', Date.now()),
    { ended_at: Date.now(), end_reason: 'logout' }
  )
}
