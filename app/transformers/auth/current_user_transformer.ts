import type User from '#models/user'
import { BaseTransformer } from '@adonisjs/core/transformers'
import { enabledStatus, named, s, shape } from '#openapi/schema'
import { roleSummary } from '#transformers/admin/role_transformer'
import { REQUIREMENTS } from '#auth/account_requirements'
import { sidebarMenuSchema } from '#transformers/admin/menu_transformer'

/** The signed-in administrator's own profile; the admin User shape extends it. */
export const currentUser = shape({
  id: s.integer(),
  account: s.string(),
  nickname: s.string(),
  email: s.nullable(s.string()),
  emailVerified: {
    ...s.boolean(),
    description: 'The owner confirmed the address with a mailed code',
  },
  status: enabledStatus(),
  lastLoginAt: s.nullable(s.dateTime()),
  twoFactorEnabled: s.boolean(),
  createdAt: s.dateTime(),
  passwordChangeRequired: s.boolean(),
  passwordExpiresAt: s.nullable(s.dateTime()),
  avatarUrl: s.nullable(s.string()),
})
/** What only the owner sees of the own account: the previous sign-in and failures since. */
const ownUser = shape({
  ...currentUser.properties,
  lastSignIn: s.nullable(s.object({ at: s.dateTime(), ip: s.nullable(s.string()) })),
  failedSinceLastSignIn: s.integer({
    description: 'Failed password checks since the previous sign-in (lastSignIn)',
  }),
})
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
