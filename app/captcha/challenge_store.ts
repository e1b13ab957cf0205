import { createHash, randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'

/**
 * Server-side, single-use state of the login flow, in the database so every instance shares it:
 * - a challenge holds the answer x of one captcha; it never leaves the server;
 * - a credential (the "captchaToken") is earned by a right drag and spent by one login.
 *
 * Consuming is one `DELETE ... RETURNING` statement: under concurrency exactly one caller gets the
 * row, everyone else gets nothing. Expired rows are also refused, and swept now and then.
 */

const rowsOf = (result: any): any[] => (Array.isArray(result) ? result : result.rows)
const randomId = (bytes: number) => randomBytes(bytes).toString('base64url')
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/** One in SWEEP_EVERY writes also deletes expired rows, so the tables stay small. */
const SWEEP_EVERY = 50

async function maybeSweep(table: 'captcha_challenges' | 'captcha_tokens', now: number) {
  if (Math.floor(Math.random() * SWEEP_EVERY) === 0) {
    await db.from(table).where('expires_at', '<', now).delete()
  }
}

export async function saveChallenge(answerX: number, ttlSeconds: number, clientIp: string) {
  const id = randomId(16)
  const now = Date.now()
  await maybeSweep('captcha_challenges', now)
  await db
    .table('captcha_challenges')
    .insert({ id, answer_x: answerX, expires_at: now + ttlSeconds * 1000, client_ip: clientIp })
  return id
}

/**
 * Deletes the challenge and returns its answer and the address that fetched it, or null when
 * unknown, used or expired.
 */
export async function consumeChallenge(
  id: string
): Promise<{ answerX: number; clientIp: string | null } | null> {
  const result = await db.rawQuery(
    'DELETE FROM captcha_challenges WHERE id = ? RETURNING answer_x, expires_at, client_ip',
    [id]
  )
  const row = rowsOf(result)[0]
  if (!row || Number(row.expires_at) < Date.now()) return null
  return { answerX: Number(row.answer_x), clientIp: row.client_ip ?? null }
}

/**
 * Issues a one-time login credential: 256 random bits, stored as its SHA-256 digest only, bound
 * to the client address that fetched the challenge.
 */
export async function issueCredential(ttlSeconds: number, clientIp: string) {
  const token = randomId(32)
  const now = Date.now()
  await maybeSweep('captcha_tokens', now)
  await db.table('captcha_tokens').insert({
    token_hash: sha256(token),
    expires_at: now + ttlSeconds * 1000,
    client_ip: clientIp,
  })
  return token
}

/**
 * Spends a credential. True only for the first caller presenting a known, unexpired one from
 * the address it was issued to (presented from another address, it is spent and refused).
 */
export async function consumeCredential(token: string, clientIp: string): Promise<boolean> {
  const result = await db.rawQuery(
    'DELETE FROM captcha_tokens WHERE token_hash = ? RETURNING expires_at, client_ip',
    [sha256(token)]
  )
  const row = rowsOf(result)[0]
  return Boolean(row) && Number(row.expires_at) >= Date.now() && row.client_ip === clientIp
}
