import type User from '#models/user'
import { BaseTransformer } from '@adonisjs/core/transformers'
import { named, s } from '#openapi/schema'
import { roleSummary } from '#resources/roles'
import { ownUser } from '#resources/users'
import { REQUIREMENTS } from '#auth/account_requirements'
import { sidebarMenuSchema } from '#transformers/admin/menu_transformer'

/** Response contract (OpenAPI): `user` in /api/auth/me, and the whole /me body. */
export const currentUserSchema = named('CurrentUser', ownUser.schema)
export const meSchema = s.object({
  user: currentUserSchema,
  pendingRequirement: {
    ...s.nullable(s.enum(REQUIREMENTS)),
    description:
      'What the account must do before the routes that refuse it with this code answer it (a ' +
      'forced password change first); null when nothing is pending',
  },
  roles: s.array(roleSummary.schema),
  menus: s.array(sidebarMenuSchema),
  permissions: s.array(s.string()),
})

/** Picked, never spread: no password digest, no tokenVersion. */
export default class CurrentUserTransformer extends BaseTransformer<User> {
  toObject() {
    return this.pick(this.resource, ownUser.keys)
  }
}
