import { Bouncer } from '@adonisjs/bouncer'
import auth from '@adonisjs/auth/services/main'
import { HttpContext } from '@adonisjs/core/http'
// ctx.auth's type (its module augmentation lives there).
import type {} from '@adonisjs/auth/initialize_auth_middleware'
import * as abilities from '#abilities/main'
import { policies } from '#generated/policies'
import type { Principal } from '#policies/grant_rule'

/*
| ctx.auth and ctx.bouncer, created on a request's first use instead of by two router middleware
| on every request: the public routes, readiness and the login never touch them (imported by
| start/kernel.ts).
*/
HttpContext.getter(
  'auth',
  function (this: HttpContext) {
    return auth.createAuthenticator(this)
  },
  true
)

/**
 * One Bouncer per request. Its "user" is the principal the JWT guard authenticated: the account
 * id and the access snapshot of this request, so abilities and policies decide without a query.
 */
HttpContext.getter(
  'bouncer',
  function (this: HttpContext) {
    return new Bouncer<Principal, typeof abilities, typeof policies>(
      () => {
        const guard = this.auth.use('jwt')
        const access = guard.access
        return guard.account && access ? { id: guard.account.id, access } : null
      },
      abilities,
      policies
    ).setContainerResolver(this.containerResolver)
  },
  true
)

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    bouncer: Bouncer<Principal, typeof abilities, typeof policies>
  }
}
