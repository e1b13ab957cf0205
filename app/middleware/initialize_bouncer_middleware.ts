import { Bouncer } from '@adonisjs/bouncer'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import * as abilities from '#abilities/main'
import { policies } from '#generated/policies'
import type { Principal } from '#policies/grant_rule'

/**
 * One Bouncer per request. Its "user" is the principal the JWT guard authenticated: the account
 * id and the access snapshot of this request, so abilities and policies decide without a query.
 */
export default class InitializeBouncerMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    ctx.bouncer = new Bouncer<Principal, typeof abilities, typeof policies>(
      () => {
        const guard = ctx.auth.use('jwt')
        const access = guard.access
        return guard.account && access ? { id: guard.account.id, access } : null
      },
      abilities,
      policies
    ).setContainerResolver(ctx.containerResolver)
    return next()
  }
}

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    bouncer: Bouncer<Principal, typeof abilities, typeof policies>
  }
}
