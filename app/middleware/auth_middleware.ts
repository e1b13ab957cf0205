import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { type Requirement, assertSettled } from '#auth/account_requirements'

/**
 * Requires a valid admin JWT; the guard re-reads the account and its access snapshot. An account
 * with a pending requirement (app/auth/account_requirements.ts) passes only where `pending` lists it.
 */
const NO_OPTIONS = {}

export default class AuthMiddleware {
  async handle(
    ctx: HttpContext,
    next: NextFn,
    options: { pending?: readonly Requirement[] } = NO_OPTIONS
  ) {
    const guard = ctx.auth.use('jwt')
    assertSettled(await guard.authenticateAccount(), options.pending, guard.access)
    return next()
  }
}
