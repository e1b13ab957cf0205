import { BaseTransformer } from '@adonisjs/core/transformers'
import type ApiToken from '#models/api_token'
import { named, s } from '#openapi/schema'
import { apiToken } from '#resources/api_tokens'

const iso = (ms: number) => new Date(ms).toISOString()

/** Response contract (OpenAPI): one of the caller's API tokens. */
export const ownApiTokenSchema = named('OwnApiToken', apiToken.schema)

/** The answer of POST /api/auth/tokens: the token's row and, this once, the token. */
export const newApiTokenSchema = named(
  'NewApiToken',
  s.object({ ...apiToken.properties, token: s.string({ pattern: '^rbac_[A-Za-z0-9_-]{43}$' }) })
)

/** The computed fields of a token (the service sets `$extras.status`). */
export function apiTokenFields(token: ApiToken) {
  return {
    status: token.$extras.status as 'active' | 'expired' | 'revoked',
    createdAt: iso(token.createdAt),
    expiresAt: iso(token.expiresAt),
    lastUsedAt: token.lastUsedAt === null ? null : iso(token.lastUsedAt),
  }
}

export default class OwnApiTokenTransformer extends BaseTransformer<ApiToken> {
  toObject() {
    return { ...this.pick(this.resource, apiToken.keys), ...apiTokenFields(this.resource) }
  }
}
