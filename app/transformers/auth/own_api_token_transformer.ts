import { BaseTransformer } from '@adonisjs/core/transformers'
import type ApiToken from '#models/api_token'
import { computed, named, s, shape } from '#openapi/schema'

/** Token times are stored as epoch milliseconds: computed into ISO 8601. */
const iso = (ms: number) => new Date(ms).toISOString()

/**
 * An API token as its owner sees it (never the token itself: it is shown once, at creation).
 * `hint`: its last 4 characters. `status`: `revoked` once the owner's password changed or was
 * reset or the owner was disabled (app/auth/api_tokens.ts).
 */
export const apiToken = shape({
  id: s.integer(),
  name: s.string(),
  hint: s.string(),
  permissions: s.array(s.string()),
  status: computed(s.enum(['active', 'expired', 'revoked'])),
  createdAt: computed(s.dateTime()),
  expiresAt: computed(s.dateTime()),
  lastUsedAt: computed(s.nullable(s.dateTime())),
  lastUsedIp: s.nullable(s.string()),
})
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
