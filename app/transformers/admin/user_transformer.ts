import { BaseTransformer } from '@adonisjs/core/transformers'
import type User from '#models/user'

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
