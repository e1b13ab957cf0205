import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ApiTokenService from '#services/api_token_service'
import { actorOf } from '#services/admin/common'
import OwnApiTokenTransformer, {
  newApiTokenSchema,
  ownApiTokenSchema,
} from '#transformers/auth/own_api_token_transformer'
import { createApiTokenValidator } from '#validators/api_token'
import { contract } from '#openapi/contract'

/**
 * /api/auth/tokens: a signed-in administrator's own API tokens (app/auth/api_tokens.ts). A
 * session (JWT) only: an API token is refused here (401), so a token cannot mint tokens.
 * Creating and revoking are audited under `self:token:create` / `self:token:delete` (these
 * routes declare no permission code: anyone signed in manages their own tokens).
 */
@inject()
export default class ApiTokensController {
  static contract = contract({
    index: {
      summary: "The caller's API tokens (never the tokens themselves)",
      list: ownApiTokenSchema,
    },
    store: {
      summary: 'Create an API token carrying codes the caller holds; the token is shown once',
      body: createApiTokenValidator,
      status: 201,
      data: newApiTokenSchema,
      errors: [403, 409],
    },
    destroy: { summary: 'Revoke one of the own API tokens', status: 204 },
  })

  constructor(protected tokens: ApiTokenService) {}

  async index({ auth, response, serialize }: HttpContext) {
    const tokens = await this.tokens.listOwn(auth.use('jwt').getUserOrFail())
    response.header('Cache-Control', 'no-store')
    return serialize(OwnApiTokenTransformer.transform(tokens))
  }

  async store(ctx: HttpContext) {
    const input = await ctx.request.validateUsing(createApiTokenValidator)
    const user = ctx.auth.use('jwt').getUserOrFail()
    const { token, row } = await this.tokens.create(actorOf(ctx, 'self:token:create'), user, input)
    ctx.response.status(201)
    ctx.response.header('Cache-Control', 'no-store')
    return ctx.serialize({ ...new OwnApiTokenTransformer(row).toObject(), token })
  }

  async destroy(ctx: HttpContext) {
    const user = ctx.auth.use('jwt').getUserOrFail()
    await this.tokens.revokeOwn(actorOf(ctx, 'self:token:delete'), user, Number(ctx.params.id))
    return ctx.response.noContent()
  }
}
