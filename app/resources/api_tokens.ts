import { computed, s, shape, sortable } from '#openapi/schema'

/**
 * An API token as its owner sees it (never the token itself: it is shown once, at creation).
 * `hint`: its last 4 characters. `status`: `revoked` once the owner's password changed or was
 * reset or the owner was disabled (app/auth/api_tokens.ts). Times are stored as epoch
 * milliseconds: computed into ISO 8601.
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

/** Any account's API token, with its owner, as the monitors' list shows it. */
export const adminApiToken = shape({
  ...apiToken.properties,
  userId: s.integer(),
  account: computed(s.nullable(s.string())),
  nickname: computed(s.nullable(s.string())),
})
/** What `sort` accepts on the monitors' token list. */
export const apiTokenSort = sortable(adminApiToken, [
  'id',
  'name',
  'createdAt',
  'expiresAt',
  'lastUsedAt',
])
