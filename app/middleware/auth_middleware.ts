import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/**
 * Requires a valid admin JWT; the guard re-reads the account and its access snapshot.
 */
export default class AuthMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    await ctx.auth.use('jwt').authenticate()
    return next()
  }
}
