import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import type ApiToken from '#models/api_token'
import type { AccessSnapshot } from '#auth/access_snapshot'
import { digest, newSecret } from '#core/secrets'

/**
 * API tokens for automation (migration 1763800000040, docs/architecture.md, "API tokens").
 *
 * - The text is `rbac_` + a secret (app/core/secrets.ts): the prefix lets secret scanners
 *   (GitHub's, gitleaks, trufflehog) recognise a leaked one.
 * - Only its SHA-256 digest is stored: one indexed equality per request (argon2 there would cost
 *   ~50 ms of CPU per request and give anyone with a fake token a denial of service).
 * - Accepted on /api/admin routes only (the `can` middleware asks the guard for them). The guard
 *   reads the token, its owner and the access version in ONE statement (tokenSql), then the
 *   owner's access snapshot cached per (account, version), and narrows it to the token's codes
 *   (AccessSnapshot.narrowedTo): a code the owner lost is gone on the very next request.
 * - Dead when expired, when the owner is disabled or deleted (cascade), and when the owner's
 *   tokenVersion moved since creation (password change or reset, account disabled).
 */
export const API_TOKEN_PREFIX = 'rbac_'

/** last_used_at is written at most this often per token: no write per request. */
export const LAST_USED_INTERVAL_MS = 60_000
export const MAX_TTL_DAYS = 365
/** Live tokens an account may hold at once. */
export const MAX_LIVE_PER_ACCOUNT = 20

/** A new token: the text (shown once), its digest and its hint (the last 4 characters). */
export function generateApiToken() {
  const token = API_TOKEN_PREFIX + newSecret()
  return { token, tokenHash: digest(token), hint: token.slice(-4) }
}

/**
 * The guard's statement for a token request: the owner's columns (the same list as the JWT
 * statement), the access version and the token's own columns, found by the digest.
 */
export function tokenSql(userColumns: string) {
  return `SELECT ${userColumns}, (SELECT version FROM access_version WHERE id = 1) AS access_version,
       t.id AS api_token_id, t.permissions AS api_token_permissions,
       t.token_version AS api_token_version, t.expires_at AS api_token_expires_at,
       t.last_used_at AS api_token_last_used_at
  FROM api_tokens t JOIN users ON users.id = t.user_id
 WHERE t.token_hash = ?`
}

export type TokenColumns = {
  access_version: string | number
  api_token_id: string | number
  api_token_permissions: string
  api_token_version: string | number
  api_token_expires_at: string | number
  api_token_last_used_at: string | number | null
}

/** The guard's verdict on the token columns it read with the owner's row. */
export function apiTokenIsLive(
  row: TokenColumns,
  owner: Pick<User, 'isEnabled' | 'tokenVersion'>,
  now = Date.now()
) {
  return (
    owner.isEnabled &&
    Number(row.api_token_version) === owner.tokenVersion &&
    Number(row.api_token_expires_at) > now
  )
}

export type ApiTokenStatus = 'active' | 'expired' | 'revoked'

/** What the lists show: revoked = the owner's tokenVersion moved, or the owner is disabled. */
export function apiTokenStatus(token: ApiToken, owner: User, now = Date.now()): ApiTokenStatus {
  if (!owner.isEnabled || token.tokenVersion !== owner.tokenVersion) return 'revoked'
  return token.expiresAt > now ? 'active' : 'expired'
}

/** Coarse last use: one UPDATE per token per LAST_USED_INTERVAL_MS at most. */
export async function touchApiToken(id: number, lastUsedAt: string | number | null, ip: string) {
  const now = Date.now()
  if (lastUsedAt !== null && now - Number(lastUsedAt) < LAST_USED_INTERVAL_MS) return
  await db
    .from('api_tokens')
    .where('id', id)
    .where((query) =>
      query.whereNull('last_used_at').orWhere('last_used_at', '<', now - LAST_USED_INTERVAL_MS)
    )
    .update({ last_used_at: now, last_used_ip: ip.slice(0, 64) })
}

/**
 * The token's access: the owner's snapshot narrowed to the token's codes, computed once per
 * (owner snapshot, stored codes). A snapshot is replaced when the access version moves, and the
 * key is the codes as read in this request, so an entry can never be stale.
 */
const narrowed = new WeakMap<AccessSnapshot, Map<string, AccessSnapshot>>()

export function tokenAccess(owner: AccessSnapshot, storedCodes: string): AccessSnapshot {
  let byCodes = narrowed.get(owner)
  if (!byCodes) narrowed.set(owner, (byCodes = new Map()))
  let access = byCodes.get(storedCodes)
  if (!access) {
    const codes: unknown = JSON.parse(storedCodes)
    access = owner.narrowedTo(
      Array.isArray(codes) ? codes.filter((c): c is string => typeof c === 'string') : []
    )
    if (byCodes.size >= 100) byCodes.clear()
    byCodes.set(storedCodes, access)
  }
  return access
}
