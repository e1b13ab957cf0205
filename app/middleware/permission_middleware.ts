import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn, RouteJSON } from '@adonisjs/core/types/http'
import type { PermissionCode } from '#auth/permissions'
import { assertSettled } from '#auth/account_requirements'

/**
 * The server-side permission declaration of a route: `.use(middleware.can('system:user:list'))`.
 * Authenticates (a JWT or an API token; no pending requirement accepted on admin routes), then asks Bouncer's `hasPermission` ability
 * (app/abilities/main.ts) about the code. A refusal is a 403, logged once by the error handler.
 */
const API_TOKENS = { apiTokens: true }
const NONE_PENDING: never[] = []

export default class PermissionMiddleware {
  async handle(ctx: HttpContext, next: NextFn, permission: PermissionCode) {
    // Admin routes are the only ones that accept an API token (app/auth/api_tokens.ts).
    const guard = ctx.auth.use('jwt')
    assertSettled(await guard.authenticateAccount(API_TOKENS), NONE_PENDING, guard.access)
    await ctx.bouncer.authorize('hasPermission', permission)
    return next()
  }
}

/** A stored route (`router.toJSON()`), or the route a request matched (`ctx.route`). */
type DeclaringRoute = Pick<RouteJSON, 'middleware'> | null | undefined

/**
 * The arguments of every permission declaration on a route, in order: the router stores a named
 * middleware as `{ name, args, ... }`, under the name it is registered with in start/kernel.ts.
 * The one place that reads this shape; the router walk (tests/functional/admin_routes.spec.ts)
 * uses it to require exactly one declaration per admin route.
 */
export function permissionDeclarations(route: DeclaringRoute): unknown[] {
  if (!route) return []
  return [...route.middleware.all()]
    .filter((entry) => typeof entry === 'object' && entry !== null && entry.name === 'can')
    .map((entry) => (entry as { args?: unknown }).args)
}

/**
 * The permission code a route declares with `can` (start/routes/admin.ts), or null when it
 * declares none. For the current request, pass `ctx.route` (the matched route).
 */
export function permissionOf(route: DeclaringRoute): string | null {
  const [code] = permissionDeclarations(route)
  return typeof code === 'string' ? code : null
}
