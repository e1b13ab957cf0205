import { BaseTransformer } from '@adonisjs/core/transformers'
import { named } from '#openapi/schema'
import { roleSummary } from '#resources/roles'
import { type ShownUser, user } from '#resources/users'

/** Response contract (OpenAPI). */
export const userSchema = named('User', user.schema)

/**
 * An administrator account as the admin API shows it (app/resources/users.ts): picked, never
 * spread, so the password digest and tokenVersion cannot leak.
 */
export default class UserTransformer extends BaseTransformer<ShownUser> {
  toObject() {
    // `roles` is read by every query that feeds this transformer.
    const roles = (this.resource.roles ?? []).map((role) => this.pick(role, roleSummary.keys))
    return {
      ...this.pick(this.resource, user.keys),
      // Set by the user service: until when anonymous logins of the account are blocked.
      lockedUntil: this.resource.$extras.lockedUntil ?? null,
      roleIds: roles.map((role) => role.id),
      roles,
    }
  }
}
