import type { HttpContext } from '@adonisjs/core/http'
import { contract } from '#openapi/contract'
import { publicParam } from '#services/settings_reads'
import PublicParamTransformer, { publicParamSchema } from '#transformers/public/param_transformer'

/** GET /api/params/:key: a parameter marked public, for anyone (404 for any other key). */
export default class ParamsController {
  static contract = contract({
    show: {
      summary: 'A public parameter, its value typed',
      description: 'Cached per settings version: a change made anywhere shows on the next request.',
      data: publicParamSchema,
    },
  })

  async show(ctx: HttpContext) {
    return ctx.serialize(PublicParamTransformer.transform(await publicParam(ctx.params.key)))
  }
}
