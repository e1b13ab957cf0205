/*
| Bouncer abilities. `hasPermission` is the route-level declaration of every /api/admin route
| (`middleware.can(code)` in start/routes/admin.ts): the permission code against the access
| snapshot the guard loaded for this request (no query). Object-level rules are the policies in
| app/policies.
*/
import { Bouncer } from '@adonisjs/bouncer'
import type { PermissionCode } from '#auth/permissions'
import { type Principal, REFUSED, refuse } from '#policies/grant_rule'

export const hasPermission = Bouncer.ability((principal: Principal, code: PermissionCode) =>
  principal.access.can(code) ? true : refuse(REFUSED.route)
)
