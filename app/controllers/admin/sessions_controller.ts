import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import SessionService from '#services/admin/session_service'
import { actorOf } from '#services/admin/common'
import SessionTransformer, { sessionSchema } from '#transformers/admin/session_transformer'
import { listSessionsValidator } from '#validators/admin/session'
import { contract } from '#openapi/contract'

/** /api/admin/sessions: online administrators and force logout. */
@inject()
export default class SessionsController {
  static contract = contract({
    index: {
      summary: 'Online administrators (live sessions)',
      query: listSessionsValidator,
      page: sessionSchema,
    },
    destroy: { summary: 'Force logout: end a session (grant rule)', status: 204 },
  })

  constructor(protected sessions: SessionService) {}

  async index({ request, serialize }: HttpContext) {
    const page = await this.sessions.list(await request.validateUsing(listSessionsValidator))
    return serialize(SessionTransformer.paginate(page.rows, page.meta))
  }

  async destroy(ctx: HttpContext) {
    await this.sessions.forceLogout(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }
}
