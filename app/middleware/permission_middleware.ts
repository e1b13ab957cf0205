import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { PermissionCode } from '#auth/permissions'
import { forbidden } from '#exceptions/api_exception'

/**
 * The server-side permission declaration of a route: `.use(middleware.can('system:user:list'))`.
 * Authenticates when `auth` has not run yet, then checks the code against the access snapshot the
 * guard loaded (no extra query). Missing permission -> 403, logged.
 */
export default class PermissionMiddleware {
  async handle(ctx: HttpContext, next: NextFn, permission: PermissionCode) {
    const guard = ctx.auth.use('jwt')
    await guard.authenticate()
    if (!guard.getAccessOrFail().can(permission)) {
      ctx.logger.warn(
        {
          userId: guard.user!.id,
          permission,
          method: ctx.request.method(),
          url: ctx.request.url(),
        },
        'permission denied'
      )
      throw forbidden()
    }
    return next()
  }
}
