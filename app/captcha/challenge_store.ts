import db from '@adonisjs/lucid/services/db'
import { digest, isLive, newSecret, spendReturning, sweepExpired } from '#core/secrets'

/**
 * Single-use login state in the database (shared by every instance): a challenge holds a slider's
 * answer x (never sent; its id is the proof of work's nonce), a credential is earned by a right
 * drag and spent by one login; both carry the level paid and the account asked for. Spending is one
 * statement with RETURNING, so under concurrency exactly one caller gets the row (#core/secrets).
 */

/** One in SWEEP_EVERY writes also deletes expired rows, so the tables stay small. */
const SWEEP_EVERY = 50

export type Paid = { level: number; account: string | null }

/**
 * Claims the slider of proof of work `id` before it is drawn (stored spent, so nothing can verify
 * it yet). False when that proof of work already claimed one: a replayed solution, even sent
 * many times at once, draws at most one slider. The row outlives the proof of work's own expiry.
 */
export async function claimChallenge(id: string, ttlSeconds: number, clientIp: string, paid: Paid) {
  await sweepExpired('captcha_challenges', { every: SWEEP_EVERY })
  const claimed = await spendReturning(
    `INSERT INTO captcha_challenges (id, answer_x, expires_at, client_ip, level, account, spent)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [id, 0, Date.now() + ttlSeconds * 1000, clientIp, paid.level, paid.account, true]
  )
  return claimed !== null
}

/**
 * Stores the answer of the slider drawn for a claimed challenge, and when it was drawn (a track
 * cannot have lasted longer than the time since); from now on it can be verified.
 */
export async function armChallenge(id: string, answerX: number) {
  await db
    .from('captcha_challenges')
    .where('id', id)
    .update({ answer_x: answerX, spent: false, drawn_at: Date.now() })
}

/**
 * A challenge with its answer, drawn `drawnMsAgo` ago (a person's drag takes time), ready to
 * verify at once (tests and the benchmark).
 */
export async function saveChallenge(
  id: string,
  answerX: number,
  ttlSeconds: number,
  clientIp: string,
  paid: Paid = { level: 0, account: null },
  drawnMsAgo = 10_000
) {
  if (!(await claimChallenge(id, ttlSeconds, clientIp, paid))) return
  await armChallenge(id, answerX)
  await db
    .from('captcha_challenges')
    .where('id', id)
    .update({ drawn_at: Date.now() - drawnMsAgo })
}

/** True when proof of work `id` has already drawn a slider (a replayed solution). */
export async function isChallengeKnown(id: string) {
  return Boolean(await db.from('captcha_challenges').where('id', id).select('id').first())
}

/**
 * Spends the challenge and returns its answer, the address that fetched it and what was paid,
 * or null when unknown, spent or expired.
 */
export async function consumeChallenge(
  id: string
): Promise<({ answerX: number; drawnAt: number; clientIp: string | null } & Paid) | null> {
  const row = await spendReturning(
    `UPDATE captcha_challenges SET spent = ? WHERE id = ? AND spent = ?
     RETURNING answer_x, drawn_at, expires_at, client_ip, level, account`,
    [true, id, false]
  )
  if (!row || !isLive(row.expires_at)) return null
  return {
    answerX: Number(row.answer_x),
    drawnAt: Number(row.drawn_at ?? 0),
    clientIp: row.client_ip ?? null,
    level: Number(row.level),
    account: row.account ?? null,
  }
}

/**
 * Issues a one-time login credential: its level, then 256 random bits; stored as its SHA-256
 * digest only, bound to the client address that fetched the challenge, with what it paid.
 */
export async function issueCredential(ttlSeconds: number, clientIp: string, paid?: Paid) {
  const token = `${paid?.level ?? 0}.${newSecret()}`
  const now = Date.now()
  await sweepExpired('captcha_tokens', { every: SWEEP_EVERY })
  await db.table('captcha_tokens').insert({
    token_hash: digest(token),
    expires_at: now + ttlSeconds * 1000,
    client_ip: clientIp,
    level: paid?.level ?? 0,
    account: paid?.account ?? null,
  })
  return token
}

/**
 * The level a credential says it paid, read from its "<level>." prefix without any query (login
 * decides its limits from it before anything costly); spending it checks the stored level.
 */
export function credentialLevel(token: string) {
  const level = /^(\d)\./.exec(token)?.[1]
  return level === undefined ? 0 : Number(level)
}

/**
 * Spends a credential. What it paid, only for the first caller presenting a known, unexpired one
 * from the address it was issued to (presented from another address, it is spent and refused).
 */
export async function consumeCredential(token: string, clientIp: string): Promise<Paid | null> {
  const row = await spendReturning(
    'DELETE FROM captcha_tokens WHERE token_hash = ? RETURNING expires_at, client_ip, level, account',
    [digest(token)]
  )
  if (!row || !isLive(row.expires_at) || row.client_ip !== clientIp) return null
  if (Number(row.level) < credentialLevel(token)) return null
  return { level: Number(row.level), account: row.account ?? null }
}
