import type User from '#models/user'
import { BaseTransformer } from '@adonisjs/core/transformers'
import { named, s } from '#openapi/schema'

/** Response contract (OpenAPI): `user` in /api/auth/me. */
export const currentUserSchema = named(
  'CurrentUser',
  s.object({
    id: s.integer(),
    account: s.string(),
    nickname: s.string(),
    email: s.nullable(s.string()),
    status: s.enum(['enabled', 'disabled']),
    lastLoginAt: s.nullable(s.dateTime()),
    createdAt: s.dateTime(),
  })
)

/** The signed-in administrator's own profile: no password digest, no tokenVersion. */
export default class CurrentUserTransformer extends BaseTransformer<User> {
  toObject() {
    return this.pick(this.resource, [
      'id',
      'account',
      'nickname',
      'email',
      'status',
      'lastLoginAt',
      'createdAt',
    ])
  }
}
