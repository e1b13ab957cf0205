import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { PermissionCode } from '#auth/permissions'

/**
 * The server-side permission declaration of a route: `.use(middleware.can('system:user:list'))`.
 * Authenticates when `auth` has not run yet, then asks Bouncer's `hasPermission` ability
 * (app/abilities/main.ts) about the code. A refusal is a 403, logged once by the error handler.
 */
export default class PermissionMiddleware {
  async handle(ctx: HttpContext, next: NextFn, permission: PermissionCode) {
    await ctx.auth.use('jwt').authenticate()
    await ctx.bouncer.authorize('hasPermission', permission)
    return next()
  }
}
