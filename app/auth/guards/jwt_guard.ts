import type { HttpContext } from '@adonisjs/core/http'
import { symbols } from '@adonisjs/auth'
import type { AuthClientResponse, GuardContract } from '@adonisjs/auth/types'
import db from '@adonisjs/lucid/services/db'
import { preparedQuery } from '#core/prepared_query'
import { FreshReads } from '#core/fresh_read'
import User from '#models/user'
import adminAuthConfig from '#config/admin_auth'
import { signAdminToken, verifyAdminToken } from '#auth/jwt'
import { type AccessSnapshot, accessSnapshotFor } from '#auth/access_snapshot'
import { type AccountState, accountStateFor, userColumnNames } from '#auth/account_state'
import { unauthorized } from '#exceptions/api_exception'
import { createSession, sessionIsLive, touchSession } from '#auth/sessions'
import { digest } from '#core/secrets'
import {
  type TokenColumns,
  apiTokenIsLive,
  tokenAccess,
  tokenSql,
  touchApiToken,
} from '#auth/api_tokens'

/**
 * The account and the current access version, in one statement (a prepared one on PostgreSQL).
 * The model's columns are named, not `users.*`: a column added by a later migration must not
 * change the result type of a statement already prepared on a running instance's connections
 * (PostgreSQL would refuse to execute it: "cached plan must not change result type").
 */
let userColumns: string | undefined
const userColumnList = () =>
  (userColumns ??= userColumnNames()
    .map((column) => `users.${column}`)
    .join(', '))

/** What the guard reads per request: the account, the access version, its session's columns. */
const guardColumns = () => `${userColumnList()},
       (SELECT version FROM access_version WHERE id = 1) AS access_version,
       s.expires_at AS session_expires_at, s.ended_at AS session_ended_at,
       s.last_seen_at AS session_last_seen_at`

/** One request's read (SQLite, in-process). */
let guardQuery: string | undefined
function guardSql() {
  guardQuery ??= `SELECT ${guardColumns()}
  FROM users LEFT JOIN admin_sessions s ON s.id = ? AND s.user_id = users.id
 WHERE users.id = ?`
  return guardQuery
}

/**
 * The same read for many requests at once on PostgreSQL: the (account, session) pairs of the
 * requests waiting for it, as two arrays, one row per pair found (`pair` is its index).
 */
let guardBatchQuery: string | undefined
function guardBatchSql() {
  guardBatchQuery ??= `SELECT b.pair, ${guardColumns()}
  FROM unnest(?::int[], ?::text[]) WITH ORDINALITY AS b(user_id, session_id, pair)
  JOIN users ON users.id = b.user_id
  LEFT JOIN admin_sessions s ON s.id = b.session_id AND s.user_id = users.id`
  return guardBatchQuery
}

/**
 * Concurrent requests share one guard statement (FreshReads: only requests that arrived before
 * it was sent, so a revocation committed before a request arrived is always seen).
 */
const guardReads = new FreshReads<GuardRow>(readGuardRows)

/**
 * The guard rows of `pairs` ("<account id> <session id>") in one statement (PostgreSQL): by
 * pair, for every pair whose account exists (session columns null when the session does not).
 */
export async function readGuardRows(pairs: string[]): Promise<Map<string, GuardRow>> {
  const split = pairs.map((pair) => pair.split(' '))
  const rows = await preparedQuery<GuardRow & { pair: string | number }>(guardBatchSql(), [
    pgArray(split.map(([userId]) => userId)),
    pgArray(split.map(([, sessionId]) => sessionId)),
  ])
  return new Map(rows.map((row) => [pairs[Number(row.pair) - 1], row]))
}

/** A PostgreSQL array literal of quoted elements (one value, whatever the driver path). */
const pgArray = (values: string[]) =>
  `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`

/** The account row, its session's columns and the access version (one statement). */
async function readGuardRow(userId: number, sessionId: string): Promise<GuardRow | undefined> {
  if (db.connection().dialect.name === 'postgres') {
    return guardReads.get(`${userId} ${sessionId}`)
  }
  const [row] = await preparedQuery<GuardRow>(guardSql(), [sessionId, userId])
  return row
}

type GuardRow = Record<string, any> & {
  access_version: string | number
  session_expires_at: string | number | null
  session_ended_at: string | number | null
  session_last_seen_at: string | number | null
}

let apiTokenQuery: string | undefined
const apiTokenSql = () => (apiTokenQuery ??= tokenSql(userColumnList()))

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/
/** An API token (app/auth/api_tokens.ts): `rbac_` + 43 base64url characters. */
const API_TOKEN_BEARER = /^Bearer (rbac_[A-Za-z0-9_-]{43})$/

/**
 * `Authorization: Bearer <jwt>`: header shape (before any crypto) -> JWT verify -> ONE query for
 * the account, its session (`jti`) and the access version -> refuse a missing/disabled account,
 * a stale tokenVersion or a dead session -> the access snapshot cached per (account, version).
 * 1 round trip when nothing changed, so revocation applies on the very next request
 * (docs/architecture.md, "What a protected request reads"). On admin routes it also accepts an
 * API token, `Bearer rbac_...` (authenticateApiToken below; docs/architecture.md, "API tokens").
 */
export class JwtGuard implements GuardContract<User> {
  declare [symbols.GUARD_KNOWN_EVENTS]: {}

  readonly driverName = 'jwt' as const
  authenticationAttempted = false
  isAuthenticated = false
  /** The authenticated account as the guard decided on it (app/auth/account_state.ts). */
  account?: AccountState
  /** The row the account was read from: `user` is hydrated from it on first use only. */
  #row?: Record<string, any>
  #user?: User
  /** The roles, menus and permission codes of `user`, loaded with it. */
  access?: AccessSnapshot
  /** The session (JWT `jti`) this request authenticated with. */
  sessionId?: string
  /** The API token this request authenticated with (admin routes only), instead of a session. */
  apiTokenId?: number

  constructor(private ctx: HttpContext) {}

  /** The account's model, hydrated from the guard's row when first asked for (not per request). */
  get user(): User | undefined {
    if (!this.#user && this.#row) this.#user = User.$createFromAdapterResult(this.#row)!
    return this.#user
  }

  /** The authenticated account's id, without hydrating the model (access log, error handler). */
  get userId(): number | undefined {
    return this.account?.id
  }

  async authenticate(options: { apiTokens?: boolean } = {}): Promise<User> {
    await this.authenticateAccount(options)
    return this.getUserOrFail()
  }

  /**
   * authenticate() without the model: the middleware decide on the account state.
   * `apiTokens`: also accept an API token (`Bearer rbac_...`). Only the `can` middleware of the
   * admin routes asks for it; everywhere else (/api/auth/*: password, /me, tokens) a token is a 401.
   */
  async authenticateAccount(options: { apiTokens?: boolean } = {}): Promise<AccountState> {
    if (this.authenticationAttempted) {
      if (!this.account) throw unauthorized()
      return this.account
    }
    this.authenticationAttempted = true

    const header = this.ctx.request.header('authorization')
    if (!header) throw unauthorized()
    if (header.length > adminAuthConfig.jwt.maxHeaderLength) throw unauthorized('invalidToken')
    const apiToken = API_TOKEN_BEARER.exec(header)
    if (apiToken) {
      if (!options.apiTokens) {
        throw unauthorized('apiTokensAcceptedApi')
      }
      return this.authenticateApiToken(apiToken[1])
    }
    const match = BEARER.exec(header)
    if (!match) throw unauthorized('invalidToken')

    const claims = await verifyAdminToken(match[1])
    if (!claims) throw unauthorized('invalidExpiredToken')

    const row = await readGuardRow(claims.userId, claims.sessionId)
    const account = row ? accountStateFor(row) : null
    if (
      !row ||
      !account ||
      !account.isEnabled ||
      account.tokenVersion !== claims.tokenVersion ||
      !sessionIsLive(row)
    ) {
      throw unauthorized('sessionLongerValidSign')
    }
    await touchSession(claims.sessionId, row.session_last_seen_at!)

    this.access = await accessSnapshotFor(account.id, account.deptId, Number(row.access_version))
    this.#authenticated(row, account)
    this.sessionId = claims.sessionId
    return account
  }

  #authenticated(row: Record<string, any>, account: AccountState) {
    this.#row = row
    this.account = account
    this.isAuthenticated = true
  }

  /**
   * ONE query for the token, its owner and the access version -> refuse an unknown, expired or
   * revoked token or a disabled owner -> the owner's snapshot (cached per (account, version))
   * narrowed to the token's codes. Still 1 round trip when nothing changed.
   */
  private async authenticateApiToken(token: string): Promise<AccountState> {
    const [row] = await preparedQuery<GuardRow & TokenColumns>(apiTokenSql(), [digest(token)])
    const account = row ? accountStateFor(row) : null
    if (!account || !apiTokenIsLive(row, account)) {
      throw unauthorized('apiTokenInvalidExpired')
    }
    const id = Number(row.api_token_id)
    await touchApiToken(id, row.api_token_last_used_at, this.ctx.request.ip())

    const owner = await accessSnapshotFor(account.id, account.deptId, Number(row.access_version))
    this.access = tokenAccess(owner, row.api_token_permissions)
    this.#authenticated(row, account)
    this.apiTokenId = id
    return account
  }

  async check(): Promise<boolean> {
    try {
      await this.authenticateAccount()
      return true
    } catch (error) {
      if (error instanceof Error && (error as any).status === 401) return false
      throw error
    }
  }

  getUserOrFail(): User {
    if (!this.user) throw unauthorized()
    return this.user
  }

  /** The authenticated account's state (id, sign-in name, flags) without hydrating the model. */
  getAccountOrFail(): AccountState {
    if (!this.account) throw unauthorized()
    return this.account
  }

  getAccessOrFail(): AccessSnapshot {
    if (!this.access) throw unauthorized()
    return this.access
  }

  getSessionIdOrFail(): string {
    if (!this.sessionId) throw unauthorized()
    return this.sessionId
  }

  /**
   * Used by the Japa api client (`loginAs(user)`): a real session and a real signed token for
   * the user's current version.
   */
  async authenticateAsClient(user: User): Promise<AuthClientResponse> {
    const sessionId = await createSession(user.id, { ip: '127.0.0.1', userAgent: 'japa' })
    const { token } = await signAdminToken(user.id, user.tokenVersion, sessionId)
    return { headers: { authorization: `Bearer ${token}` } }
  }
}
