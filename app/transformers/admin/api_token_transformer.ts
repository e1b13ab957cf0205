import { BaseTransformer } from '@adonisjs/core/transformers'
import type ApiToken from '#models/api_token'
import { named } from '#openapi/schema'
import { adminApiToken } from '#resources/api_tokens'
import { apiTokenFields } from '#transformers/auth/own_api_token_transformer'
import { ownerOf } from '#transformers/admin/session_transformer'

/** Response contract (OpenAPI): an API token as the monitors' list shows it. */
export const apiTokenSchema = named('ApiToken', adminApiToken.schema)

/** Any account's API token, with its owner (`user` is preloaded); never the token itself. */
export default class ApiTokenTransformer extends BaseTransformer<ApiToken> {
  toObject() {
    return {
      ...this.pick(this.resource, adminApiToken.keys),
      ...apiTokenFields(this.resource),
      ...ownerOf(this.resource),
    }
  }
}
