import type { HttpContext } from '@adonisjs/core/http'
import { pageMeta } from '#providers/api_provider'
import SessionService from '#services/admin/session_service'
import { actorOf } from '#services/admin/common'
import SessionTransformer from '#transformers/admin/session_transformer'
import { listSessionsValidator } from '#validators/admin/session'
import { contract } from '#openapi/contract'
import { sessionSchema } from '#transformers/admin/session_transformer'

const sessions = new SessionService()

/** /api/admin/sessions: online administrators and force logout. */
export default class SessionsController {
  static contract = contract({
    index: {
      summary: 'Online administrators (live sessions)',
      query: listSessionsValidator,
      page: sessionSchema,
    },
    destroy: { summary: 'Force logout: end a session (grant rule)', status: 204 },
  })

  async index(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(listSessionsValidator)
    const page = await sessions.list(filters)
    return ctx.serialize(
      SessionTransformer.paginate(page.rows, pageMeta(page.total, page.pageNum, page.pageSize))
    )
  }

  async destroy(ctx: HttpContext) {
    await sessions.forceLogout(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }
}
