import type { HttpContext } from '@adonisjs/core/http'
import { contract } from '#openapi/contract'
import { dictOptions } from '#services/settings_reads'
import DictOptionsTransformer, { dictOptionsSchema } from '#transformers/auth/dict_transformer'

/** GET /api/dicts/:code: the options of a dictionary, for any signed-in administrator. */
export default class SettingsController {
  static contract = contract({
    dict: {
      summary: "A dictionary's enabled items, in order (404 unknown or disabled)",
      description: 'Cached per settings version: a change made anywhere shows on the next request.',
      data: dictOptionsSchema,
    },
  })

  async dict(ctx: HttpContext) {
    return ctx.serialize(DictOptionsTransformer.transform(await dictOptions(ctx.params.code)))
  }
}
