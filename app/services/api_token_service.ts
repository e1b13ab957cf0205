import db from '@adonisjs/lucid/services/db'
import type { Infer } from '@vinejs/vine/types'
import ApiToken from '#models/api_token'
import type User from '#models/user'
import UserPolicy from '#policies/user_policy'
import { accountHolding } from '#policies/holdings'
import { conflict, notFound } from '#exceptions/api_exception'
import { MAX_LIVE_PER_ACCOUNT, apiTokenStatus, generateApiToken } from '#auth/api_tokens'
import { type Actor, ordered, paginate } from '#services/admin/common'
import { apiTokenSort } from '#resources/api_tokens'
import { audit } from '#services/admin/writes'
import type { createApiTokenValidator, listApiTokensValidator } from '#validators/api_token'

const DAY_MS = 86_400_000

/** What the audit row of a token names: never the token or its digest. */
const described = (token: ApiToken) => ({
  name: token.name,
  userId: token.userId,
  permissions: token.permissions,
  expiresAt: new Date(token.expiresAt).toISOString(),
})

function withStatus(tokens: ApiToken[], ownerOf: (token: ApiToken) => User) {
  const now = Date.now()
  for (const token of tokens) token.$extras.status = apiTokenStatus(token, ownerOf(token), now)
  return tokens
}

/**
 * API tokens (app/auth/api_tokens.ts): a signed-in administrator's own (list, create, revoke),
 * and every account's for monitors (list, revoke under the grant rule, like force logout).
 * Every write has its audit row in its transaction.
 */
export default class ApiTokenService {
  /** The caller's tokens, newest first, with their status. */
  async listOwn(user: User) {
    const tokens = await ApiToken.query()
      .where('user_id', user.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
    return withStatus(tokens, () => user)
  }

  /**
   * A token for the caller, carrying codes the caller holds now (else 403, nothing stored).
   * Returns the token text, which is never readable again, with its row.
   */
  async create(actor: Actor, user: User, input: Infer<typeof createApiTokenValidator>) {
    const permissions = [...new Set(input.permissions)].sort()
    await actor.bouncer.with(UserPolicy).authorize('createApiToken', permissions)
    const { token, tokenHash, hint } = generateApiToken()
    const now = Date.now()
    const row = await db.transaction(async (trx) => {
      const [{ live }] = await trx
        .from('api_tokens')
        .where('user_id', user.id)
        .where('token_version', user.tokenVersion)
        .where('expires_at', '>', now)
        .count('* as live')
      if (Number(live) >= MAX_LIVE_PER_ACCOUNT) {
        throw conflict('apiTokenLimit', { max: MAX_LIVE_PER_ACCOUNT })
      }
      const created = await ApiToken.create(
        {
          userId: user.id,
          name: input.name,
          tokenHash,
          hint,
          permissions,
          tokenVersion: user.tokenVersion,
          createdAt: now,
          expiresAt: now + input.expiresInDays * DAY_MS,
          lastUsedAt: null,
          lastUsedIp: null,
        },
        { client: trx }
      )
      const changes = Object.fromEntries(
        Object.entries(described(created)).map(([key, value]) => [key, [null, value]])
      ) as Record<string, [unknown, unknown]>
      await audit(trx, actor, { targetType: 'token', targetId: created.id, changes })
      return created
    })
    return { token, row: withStatus([row], () => user)[0] }
  }

  /** Revokes one of the caller's own tokens; 404 for any other id. */
  async revokeOwn(actor: Actor, user: User, id: number) {
    await this.revokeWhere(actor, id, user.id)
  }

  /** Every account's tokens, newest first (monitors). */
  async list(filters: Infer<typeof listApiTokensValidator>) {
    const query = ApiToken.query().preload('user')
    if (filters.account) {
      query.whereIn(
        'user_id',
        db
          .from('users')
          .select('id')
          .whereRaw('lower(account) = ?', [filters.account.toLowerCase()])
      )
    }
    const order = ordered(query, filters.sort, apiTokenSort, [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    const page = await paginate(order, filters)
    return { rows: withStatus(page.rows, (token) => token.user), meta: page.meta }
  }

  /**
   * A monitor revokes a token: judged like force logout (UserPolicy.revokeApiToken), nobody
   * revokes the tokens of an account holding more than they do.
   */
  async revoke(actor: Actor, id: number) {
    await this.revokeWhere(actor, id, null)
  }

  private async revokeWhere(actor: Actor, id: number, ownerId: number | null) {
    await db.transaction(async (trx) => {
      const query = ApiToken.query({ client: trx }).where('id', id)
      if (ownerId !== null) query.where('user_id', ownerId)
      const token = await query.first()
      if (!token) throw notFound('apiTokenNotFound')
      if (ownerId === null) {
        await actor.bouncer
          .with(UserPolicy)
          .authorize('revokeApiToken', await accountHolding(trx, token.userId))
      }
      const changes = Object.fromEntries(
        Object.entries(described(token)).map(([key, value]) => [key, [value, null]])
      ) as Record<string, [unknown, unknown]>
      await token.useTransaction(trx).delete()
      await audit(trx, actor, { targetType: 'token', targetId: id, changes })
    })
  }
}
