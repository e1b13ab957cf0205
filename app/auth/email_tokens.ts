import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import env from '#start/env'
import { digest, newSecret, spendOnce } from '#core/secrets'
import { emailCodeInvalid, emailTokenInvalid } from '#exceptions/api_exception'

/**
 * Single-use secrets sent by mail (table email_tokens; docs/email.md), stored hashed:
 *
 * - a LINK (`password_reset`, `device_link`, `email_undo`): a secret stored as its digest
 *   (app/core/secrets.ts), 15 minutes (an undo: 7 days), spent by one conditional UPDATE;
 * - a CODE (`verify_email`): 6 digits for the address it was sent to, 10 minutes, dead after 5
 *   wrong tries. Stored as an HMAC keyed from APP_KEY: a million codes are no secret to a plain
 *   hash, so a dump alone must not give them away.
 *
 * Issuing one retires the account's earlier ones of the same purpose: only the latest mail works.
 * Not so for `email_undo` (sent to the address an email change replaced, `email` = that address):
 * each replaced address keeps its own link, so a later change cannot retire the owner's.
 */
export const LINK_PURPOSES = ['password_reset', 'device_link', 'email_undo'] as const
export type LinkPurpose = (typeof LINK_PURPOSES)[number]
export const LINK_TTL_MS = 15 * 60_000
/** An undo link lives long enough for an owner back from a week away to find it. */
export const UNDO_TTL_MS = 7 * 24 * 3600_000
const ttlOf = (purpose: LinkPurpose) => (purpose === 'email_undo' ? UNDO_TTL_MS : LINK_TTL_MS)
export const CODE_TTL_MS = 10 * 60_000
export const CODE_MAX_TRIES = 5

const codeKey = Buffer.from(digest(`email-code:${env.get('APP_KEY').release()}`), 'hex')
const codeDigest = (userId: number, code: string) =>
  createHmac('sha256', codeKey).update(`${userId}:${code}`).digest('hex')

async function retire(client: QueryClientContract, userId: number, purpose: string, now: number) {
  await client
    .from('email_tokens')
    .where('user_id', userId)
    .where('purpose', purpose)
    .whereNull('used_at')
    .update({ used_at: now })
}

/**
 * A new link for the account (the earlier ones of this purpose retired, but for `email_undo`):
 * the secret to mail. `email`: the address an undo restores. In the caller's transaction when
 * given (the write it belongs to), else in one of its own.
 */
export async function issueLink(
  userId: number,
  purpose: LinkPurpose,
  options: { client?: QueryClientContract; email?: string } = {}
) {
  const token = newSecret()
  const now = Date.now()
  const write = async (client: QueryClientContract) => {
    if (purpose !== 'email_undo') await retire(client, userId, purpose, now)
    await client.table('email_tokens').insert({
      purpose,
      user_id: userId,
      token_hash: digest(token),
      email: options.email ?? null,
      created_at: now,
      expires_at: now + ttlOf(purpose),
    })
  }
  await (options.client ? write(options.client) : db.transaction(write))
  return token
}

/** A live link of this purpose, without spending it (null otherwise). */
export async function findLinkRow(token: string, purpose: LinkPurpose) {
  const row = await db
    .from('email_tokens')
    .where('token_hash', digest(token))
    .where('purpose', purpose)
    .whereNull('used_at')
    .where('expires_at', '>', Date.now())
    .select('id', 'user_id', 'email', 'created_at')
    .first()
  if (!row) return null
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    email: row.email as string | null,
    createdAt: Number(row.created_at),
  }
}

/** The account a live link of this purpose names, without spending it (null otherwise). */
export async function findLink(token: string, purpose: LinkPurpose): Promise<number | null> {
  const row = await findLinkRow(token, purpose)
  return row?.userId ?? null
}

/**
 * After an undo (link `undoId`) in its transaction: every other live secret of the account that
 * the change's author may hold dies: reset and device links, address codes, and the undo links
 * of later changes (mailed to addresses that came after the restored one). Undo links of earlier
 * changes stay: the oldest address, the owner's, always has the last word.
 */
export async function retireAfterUndo(client: QueryClientContract, userId: number, undoId: number) {
  await client
    .from('email_tokens')
    .where('user_id', userId)
    .whereNull('used_at')
    .where((query) =>
      query
        .whereNot('purpose', 'email_undo')
        .orWhere((later) => later.where('purpose', 'email_undo').where('id', '>', undoId))
    )
    .update({ used_at: Date.now() })
}

/**
 * The addresses the account's email changes replaced since `since` (epoch ms) that still got an
 * undo link (they were verified), but for `current`: a reset mail also tells them.
 */
export async function replacedAddresses(userId: number, since: number, current: string | null) {
  const rows: { email: string | null }[] = await db
    .from('email_tokens')
    .where('user_id', userId)
    .where('purpose', 'email_undo')
    .where('created_at', '>=', since)
    .distinct('email')
  // One mail per mailbox: addresses differing in case only are one.
  const byMailbox = new Map(
    rows.flatMap((row) => (row.email ? [[row.email.toLowerCase(), row.email]] : []))
  )
  byMailbox.delete((current ?? '').toLowerCase())
  return [...byMailbox.values()]
}

/**
 * Spends a live link of this purpose for that account (in the caller's transaction, so a refused
 * write leaves it usable); E_EMAIL_TOKEN_INVALID when another request spent it first.
 */
export async function spendLink(
  client: QueryClientContract,
  token: string,
  purpose: LinkPurpose,
  userId: number
) {
  const now = Date.now()
  const spent = await spendOnce(
    client
      .from('email_tokens')
      .where('token_hash', digest(token))
      .where('purpose', purpose)
      .where('user_id', userId)
      .whereNull('used_at')
      .where('expires_at', '>', now),
    { used_at: now }
  )
  if (!spent) throw emailTokenInvalid()
}

/** A new 6-digit code for `email` (the earlier ones retired): the code to mail. */
export async function issueCode(userId: number, email: string) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const now = Date.now()
  await db.transaction(async (trx) => {
    await retire(trx, userId, 'verify_email', now)
    await trx.table('email_tokens').insert({
      purpose: 'verify_email',
      user_id: userId,
      // The random part keeps the unique index from meeting an old row's equal code.
      token_hash: codeDigest(userId, code).slice(0, 48) + randomBytes(8).toString('hex'),
      email,
      created_at: now,
      expires_at: now + CODE_TTL_MS,
    })
  })
  return code
}

/**
 * Checks `code` against the account's live code, which must have been sent to `email` (the address
 * the account has now); a wrong one counts a try (dead at CODE_MAX_TRIES). E_EMAIL_CODE_INVALID
 * for every refusal. What it returns is spent by spendCode, in the write's transaction.
 */
export async function checkCode(userId: number, email: string | null, code: string) {
  const row = await db
    .from('email_tokens')
    .where('user_id', userId)
    .where('purpose', 'verify_email')
    .whereNull('used_at')
    .where('expires_at', '>', Date.now())
    .where('attempts', '<', CODE_MAX_TRIES)
    .orderBy('id', 'desc')
    .select('id', 'token_hash', 'email', 'attempts')
    .first()
  if (!row || row.email !== email) throw emailCodeInvalid()
  const expected = Buffer.from(String(row.token_hash).slice(0, 48))
  const given = Buffer.from(codeDigest(userId, code).slice(0, 48))
  if (!timingSafeEqual(expected, given)) {
    await db
      .from('email_tokens')
      .where('id', row.id)
      .where('attempts', '<', CODE_MAX_TRIES)
      .update({ attempts: db.raw('attempts + 1') })
    throw emailCodeInvalid()
  }
  return { id: Number(row.id), attempts: Number(row.attempts) }
}

/** Spends a checked code; conditional on the tries read, so of two right tries one wins. */
export async function spendCode(
  client: QueryClientContract,
  checked: { id: number; attempts: number }
) {
  const spent = await spendOnce(
    client
      .from('email_tokens')
      .where('id', checked.id)
      .whereNull('used_at')
      .where('attempts', checked.attempts),
    { used_at: Date.now() }
  )
  if (!spent) throw emailCodeInvalid()
}
