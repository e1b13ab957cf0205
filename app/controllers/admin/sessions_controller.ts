import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type AdminSession from '#models/admin_session'
import { ListController, listContract } from '#controllers/admin/crud'
import SessionService from '#services/admin/session_service'
import { actorOf } from '#services/admin/common'
import SessionTransformer, { sessionSchema } from '#transformers/admin/session_transformer'
import { listSessionsValidator } from '#validators/admin/session'
import { contract } from '#openapi/contract'

/** /api/admin/sessions: online administrators and force logout. */
@inject()
export default class SessionsController extends ListController<AdminSession> {
  static contract = contract({
    ...listContract('Online administrators (live sessions)', listSessionsValidator, sessionSchema),
    destroy: { summary: 'Force logout: end a session (grant rule)', status: 204 },
  })

  protected transformer = SessionTransformer

  constructor(protected service: SessionService) {
    super()
  }

  async destroy(ctx: HttpContext) {
    await this.service.forceLogout(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }
}
