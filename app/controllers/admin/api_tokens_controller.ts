import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type ApiToken from '#models/api_token'
import { ListController, listContract } from '#controllers/admin/crud'
import ApiTokenService from '#services/api_token_service'
import { actorOf } from '#services/admin/common'
import ApiTokenTransformer, { apiTokenSchema } from '#transformers/admin/api_token_transformer'
import { listApiTokensValidator } from '#validators/api_token'
import { contract } from '#openapi/contract'

/** /api/admin/tokens: every account's API tokens, and revoking one (grant rule). */
@inject()
export default class ApiTokensController extends ListController<ApiToken> {
  static contract = contract({
    ...listContract(
      'API tokens of every account (never the tokens themselves)',
      listApiTokensValidator,
      apiTokenSchema
    ),
    destroy: { summary: "Revoke an account's API token (grant rule)", status: 204 },
  })

  protected transformer = ApiTokenTransformer

  constructor(protected service: ApiTokenService) {
    super()
  }

  async destroy(ctx: HttpContext) {
    await this.service.revoke(actorOf(ctx), Number(ctx.params.id))
    return ctx.response.noContent()
  }
}
