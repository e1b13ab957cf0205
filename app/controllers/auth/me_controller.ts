import type { HttpContext } from '@adonisjs/core/http'
import CurrentUserTransformer from '#transformers/auth/current_user_transformer'

export default class MeController {
  /**
   * The current account state, as the guard re-read it for this request: profile, every assigned
   * role with its status, the sidebar tree (buttons excluded) and the permission codes.
   * No query beyond the guard's two.
   */
  async show({ auth, response, serialize }: HttpContext) {
    const guard = auth.use('jwt')
    const access = guard.getAccessOrFail()
    response.header('Cache-Control', 'no-store')
    return serialize({
      user: CurrentUserTransformer.transform(guard.getUserOrFail()),
      roles: access.roles,
      menus: access.menuTree(),
      permissions: [...access.permissions].sort(),
    })
  }
}
