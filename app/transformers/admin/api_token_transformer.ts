import { BaseTransformer } from '@adonisjs/core/transformers'
import type ApiToken from '#models/api_token'
import { computed, named, s, shape, sortable } from '#openapi/schema'
import { apiToken, apiTokenFields } from '#transformers/auth/own_api_token_transformer'

const adminApiToken = shape({
  ...apiToken.properties,
  userId: s.integer(),
  account: computed(s.nullable(s.string())),
  nickname: computed(s.nullable(s.string())),
})
/** Response contract (OpenAPI): an API token as the monitors' list shows it. */
export const apiTokenSchema = named('ApiToken', adminApiToken.schema)
/** What `sort` accepts on the monitors' token list. */
export const apiTokenSort = sortable(adminApiToken, [
  'id',
  'name',
  'createdAt',
  'expiresAt',
  'lastUsedAt',
])

/** Any account's API token, with its owner (`user` is preloaded); never the token itself. */
export default class ApiTokenTransformer extends BaseTransformer<ApiToken> {
  toObject() {
    const { user } = this.resource
    return {
      ...this.pick(this.resource, adminApiToken.keys),
      ...apiTokenFields(this.resource),
      account: user?.account ?? null,
      nickname: user?.nickname ?? null,
    }
  }
}
