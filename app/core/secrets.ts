import { createHash, randomBytes } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/**
 * Single-use secrets (API, device, email and mfa tokens, passkey and captcha challenges, recovery
 * codes): each store keeps its table and wire format, this module the rules they share.
 *
 * - A secret is random bytes in base64url (32: 256 bits, 43 characters), given once.
 * - Only its SHA-256 digest (hex) is stored. Not argon2id: a slow hash protects guessable
 *   secrets; nobody enumerates 2^80 or more candidates against a digest, and a fast, unsalted one
 *   keeps the lookup one indexed equality.
 * - Spending is ONE conditional statement (the row named with its "not spent, not expired"
 *   conditions, UPDATE or DELETE), so of racing spends, across requests and instances, exactly one
 *   changes the row: the winner.
 * - A row is live while `expires_at` (epoch ms) is later than now; expired rows are swept.
 */
export const newSecret = (bytes = 32) => randomBytes(bytes).toString('base64url')

/** SHA-256 of a value: hex for stored digests; ETags and file names take base64url. */
export const digest = (value: string | Buffer, encoding: 'hex' | 'base64url' = 'hex') =>
  createHash('sha256').update(value).digest(encoding)

/** Rows an UPDATE or DELETE changed (typed as an array by Lucid, a number on both drivers). */
export const rowsChanged = (result: unknown) => Number(Array.isArray(result) ? result[0] : result)

type Conditional = { update(values: Record<string, unknown>): unknown; delete(): unknown }

/**
 * Spends the row(s) `query` names, with its conditions: marks them (`set`) or deletes them
 * (no `set`). True for the one caller whose statement changed a row.
 */
export async function spendOnce(query: Conditional, set?: Record<string, unknown>) {
  return rowsChanged(await (set ? query.update(set) : query.delete())) > 0
}

/**
 * The same for a raw statement with RETURNING (DELETE ... RETURNING, UPDATE ... RETURNING,
 * INSERT ... ON CONFLICT DO NOTHING RETURNING): the row the winner got, null for the others.
 */
export async function spendReturning(
  sql: string,
  bindings: unknown[],
  client: QueryClientContract = db.connection()
): Promise<Record<string, any> | null> {
  const result = await client.rawQuery(sql, bindings as any[])
  // An array of rows on SQLite, `.rows` on PostgreSQL.
  return (Array.isArray(result) ? result : result.rows)[0] ?? null
}

/** Whether a row expiring at `expiresAt` (epoch ms, as stored) is still live. */
export const isLive = (expiresAt: unknown, now = Date.now()) => Number(expiresAt) > now

/**
 * Deletes the table's expired rows (`expires_at` is indexed in every store). `every`: only one
 * call in that many sweeps, on paths written often (the tables stay small either way).
 */
export async function sweepExpired(
  table: string,
  options: { every?: number; client?: QueryClientContract } = {}
) {
  const { every = 1, client = db.connection() } = options
  if (every > 1 && Math.floor(Math.random() * every) !== 0) return
  await client.from(table).where('expires_at', '<=', Date.now()).delete()
}
