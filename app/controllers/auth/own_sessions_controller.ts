import type { HttpContext } from '@adonisjs/core/http'
import { endOwnSession, liveSessionsOf } from '#auth/sessions'
import { notFound } from '#exceptions/api_exception'
import OwnSessionTransformer from '#transformers/auth/own_session_transformer'
import { contract } from '#openapi/contract'
import { ownSessionSchema } from '#transformers/auth/own_session_transformer'

/** /api/auth/sessions: the caller's own live sessions; any signed-in administrator. */
export default class OwnSessionsController {
  static contract = contract({
    index: { summary: "The caller's live sessions", list: ownSessionSchema },
    destroy: { summary: 'End one of the own sessions', status: 204 },
  })

  async index({ auth, response, serialize }: HttpContext) {
    const guard = auth.use('jwt')
    const sessions = await liveSessionsOf(guard.getUserOrFail().id)
    const current = guard.getSessionIdOrFail()
    for (const session of sessions) session.$extras.current = session.id === current
    response.header('Cache-Control', 'no-store')
    return serialize(OwnSessionTransformer.transform(sessions))
  }

  /** Ends one of the caller's sessions (another device, or this one). */
  async destroy({ auth, params, response }: HttpContext) {
    const user = auth.use('jwt').getUserOrFail()
    if (!(await endOwnSession(user.id, params.id))) throw notFound('sessionNotFound')
    return response.noContent()
  }
}
