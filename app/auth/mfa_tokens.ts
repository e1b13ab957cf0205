import db from '@adonisjs/lucid/services/db'
import adminAuthConfig from '#config/admin_auth'
import { digest, newSecret, spendOnce, sweepExpired } from '#core/secrets'

/**
 * The token between the two login steps (migration 1763800000021): what a right password of an
 * account with a second factor earns instead of a JWT. 256 random bits given once, stored as
 * SHA-256; valid `mfaTokenTtl` seconds; bound to the account's tokenVersion (a password change or
 * reset in between kills it); dies at its `mfaTokenMaxFailures`-th wrong code; spent by the first
 * right one (a conditional DELETE: one winner under concurrency; app/core/secrets.ts).
 */

export type MfaChallenge = { hash: string; userId: number; tokenVersion: number }

export async function issueMfaToken(userId: number, tokenVersion: number) {
  const token = newSecret()
  const now = Date.now()
  const { mfaTokenTtl } = adminAuthConfig.twoFactor
  // Expired challenges go with each new one (indexed; the table stays small).
  await sweepExpired('mfa_challenges')
  await db.table('mfa_challenges').insert({
    token_hash: digest(token),
    user_id: userId,
    token_version: tokenVersion,
    failures: 0,
    created_at: now,
    expires_at: now + mfaTokenTtl * 1000,
  })
  return { mfaToken: token, expiresIn: mfaTokenTtl }
}

/** The live challenge a token names (not expired, not dead), or null. */
export async function findMfaChallenge(token: string): Promise<MfaChallenge | null> {
  const row = await db
    .from('mfa_challenges')
    .where('token_hash', digest(token))
    .where('expires_at', '>', Date.now())
    .where('failures', '<', adminAuthConfig.twoFactor.mfaTokenMaxFailures)
    .first()
  if (!row) return null
  return { hash: row.token_hash, userId: Number(row.user_id), tokenVersion: row.token_version }
}

/** A wrong code: one more failure; the one that reaches the maximum deletes the challenge. */
export async function failMfaChallenge(challenge: MfaChallenge) {
  await db
    .from('mfa_challenges')
    .where('token_hash', challenge.hash)
    .update({ failures: db.raw('failures + 1') })
  await db
    .from('mfa_challenges')
    .where('token_hash', challenge.hash)
    .where('failures', '>=', adminAuthConfig.twoFactor.mfaTokenMaxFailures)
    .delete()
}

/** Spends the challenge; false when another request spent (or killed) it first. */
export async function spendMfaChallenge(challenge: MfaChallenge): Promise<boolean> {
  return spendOnce(db.from('mfa_challenges').where('token_hash', challenge.hash))
}
