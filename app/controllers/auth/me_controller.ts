import type { HttpContext } from '@adonisjs/core/http'
import CurrentUserTransformer from '#transformers/auth/current_user_transformer'

export default class MeController {
  /**
   * The current account state, as the guard re-read it for this request: profile, every assigned
   * role with its status, the sidebar tree (buttons excluded) and the permission codes.
   * No query beyond the guard's (1 when the access version did not move).
   */
  async show({ auth, response }: HttpContext) {
    const guard = auth.use('jwt')
    const user = JSON.stringify(new CurrentUserTransformer(guard.getUserOrFail()).toObject())
    // The access part is serialized once per access version (AccessSnapshot.toJsonFragment).
    const access = guard.getAccessOrFail().toJsonFragment()
    response.header('Cache-Control', 'no-store')
    response.header('Content-Type', 'application/json; charset=utf-8')
    return response.send(`{"data":{"user":${user},${access}}}`)
  }
}
