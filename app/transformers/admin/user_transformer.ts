import { BaseTransformer } from '@adonisjs/core/transformers'
import type User from '#models/user'
import { named, s } from '#openapi/schema'

/** Response contract (OpenAPI). */
export const userSchema = named(
  'User',
  s.object({
    id: s.integer(),
    account: s.string(),
    nickname: s.string(),
    email: s.nullable(s.string()),
    status: s.enum(['enabled', 'disabled']),
    lastLoginAt: s.nullable(s.dateTime()),
    createdAt: s.dateTime(),
    updatedAt: s.dateTime(),
    lockedUntil: s.nullable(s.dateTime()),
    roleIds: s.array(s.integer()),
    roles: s.array(
      s.object({
        id: s.integer(),
        code: s.string(),
        name: s.string(),
        status: s.enum(['enabled', 'disabled']),
      })
    ),
  })
)

/**
 * An administrator account as the admin API shows it. Fields are picked, never spread: the
 * password digest and tokenVersion cannot leak even if the model gains columns.
 */
export default class UserTransformer extends BaseTransformer<User> {
  toObject() {
    // `roles` is preloaded by every query that feeds this transformer.
    const roles = (this.resource.roles ?? []).map((role) => ({
      id: role.id,
      code: role.code,
      name: role.name,
      status: role.status,
    }))
    return {
      ...this.pick(this.resource, [
        'id',
        'account',
        'nickname',
        'email',
        'status',
        'lastLoginAt',
        'createdAt',
        'updatedAt',
      ]),
      // Set by the user service: until when anonymous logins of the account are blocked.
      lockedUntil: (this.resource.$extras.lockedUntil as string | null | undefined) ?? null,
      roleIds: roles.map((role) => role.id),
      roles,
    }
  }
}
