import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import env from '#start/env'
import { ApiException } from '#exceptions/api_exception'

/**
 * Single-use secrets sent by mail (table email_tokens; docs/email.md), stored hashed:
 *
 * - a LINK (`password_reset`, `device_link`): 256 random bits, SHA-256 stored (too many to
 *   enumerate: a fast hash keeps the lookup one indexed equality), 15 minutes, spent by one
 *   conditional UPDATE (one winner across requests and instances);
 * - a CODE (`verify_email`): 6 digits for the address it was sent to, 10 minutes, dead after 5
 *   wrong tries. Stored as an HMAC keyed from APP_KEY: a million codes are no secret to a plain
 *   hash, so a dump alone must not give them away.
 *
 * Issuing one retires the account's earlier ones of the same purpose: only the latest mail works.
 */
export const LINK_PURPOSES = ['password_reset', 'device_link'] as const
export type LinkPurpose = (typeof LINK_PURPOSES)[number]
export const LINK_TTL_MS = 15 * 60_000
export const CODE_TTL_MS = 10 * 60_000
export const CODE_MAX_TRIES = 5

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')
const codeKey = createHash('sha256')
  .update(`email-code:${env.get('APP_KEY').release()}`)
  .digest()
const codeDigest = (userId: number, code: string) =>
  createHmac('sha256', codeKey).update(`${userId}:${code}`).digest('hex')

export const emailTokenInvalid = () =>
  new ApiException(400, 'E_EMAIL_TOKEN_INVALID', 'emailTokenInvalid')

export const emailCodeInvalid = () =>
  new ApiException(400, 'E_EMAIL_CODE_INVALID', 'emailCodeInvalid')

/** Rows an UPDATE changed (a number, or a one-element array on some drivers). */
const affected = (result: unknown) => Number(Array.isArray(result) ? result[0] : result)

async function retire(client: QueryClientContract, userId: number, purpose: string, now: number) {
  await client
    .from('email_tokens')
    .where('user_id', userId)
    .where('purpose', purpose)
    .whereNull('used_at')
    .update({ used_at: now })
}

/** A new link for the account (the earlier ones of this purpose retired): the secret to mail. */
export async function issueLink(userId: number, purpose: LinkPurpose) {
  const token = randomBytes(32).toString('base64url')
  const now = Date.now()
  await db.transaction(async (trx) => {
    await retire(trx, userId, purpose, now)
    await trx.table('email_tokens').insert({
      purpose,
      user_id: userId,
      token_hash: sha256(token),
      created_at: now,
      expires_at: now + LINK_TTL_MS,
    })
  })
  return token
}

/** The account a live link of this purpose names, without spending it (null otherwise). */
export async function findLink(token: string, purpose: LinkPurpose): Promise<number | null> {
  const row = await db
    .from('email_tokens')
    .where('token_hash', sha256(token))
    .where('purpose', purpose)
    .whereNull('used_at')
    .where('expires_at', '>', Date.now())
    .select('user_id')
    .first()
  return row ? Number(row.user_id) : null
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
  const spent = await client
    .from('email_tokens')
    .where('token_hash', sha256(token))
    .where('purpose', purpose)
    .where('user_id', userId)
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ used_at: now })
  if (affected(spent) !== 1) throw emailTokenInvalid()
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
  const spent = await client
    .from('email_tokens')
    .where('id', checked.id)
    .whereNull('used_at')
    .where('attempts', checked.attempts)
    .update({ used_at: Date.now() })
  if (affected(spent) !== 1) throw emailCodeInvalid()
}
