import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ApiTokenService from '#services/api_token_service'
import { actorOf } from '#services/admin/common'
import ApiTokenTransformer, { apiTokenSchema } from '#transformers/admin/api_token_transformer'
import { listApiTokensValidator } from '#validators/api_token'
import { contract } from '#openapi/contract'

/** /api/admin/tokens: every account's API tokens, and revoking one (grant rule). */
@inject()
export default class ApiTokensController {
  static contract = contract({
    index: {
      summary: 'API tokens of every account (never the tokens themselves)',
      query: listApiTokensValidator,
      page: apiTokenSchema,
    },
    destroy: { summary: "Revoke an account's API token (grant rule)", status: 204 },
  })

  constructor(protected tokens: ApiTokenService) {}

  async index({ request, serialize }: HttpContext) {
    const page = await this.tokens.list(await request.validateUsing(listApiTokensValidator))
    return serialize(ApiTokenTransformer.paginate(page.rows, page.meta))
  }

  async destroy(ctx: HttpContext) {
    await this.tokens.revoke(actorOf(ctx), Number(ctx.params.id))
    return ctx.response.noContent()
  }
}
