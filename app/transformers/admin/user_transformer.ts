import { BaseTransformer } from '@adonisjs/core/transformers'
import type User from '#models/user'
import type Role from '#models/role'
import { computed, named, s, shape, sortable } from '#openapi/schema'
import { currentUser } from '#transformers/auth/current_user_transformer'
import { roleSummary } from '#transformers/admin/role_transformer'
import { csvColumns } from '#transformers/csv_columns'

const user = shape({
  ...currentUser.properties,
  updatedAt: s.dateTime(),
  deptId: s.nullable(s.integer()),
  lockedUntil: computed(s.nullable(s.dateTime())),
  roleIds: computed(s.array(s.integer())),
  roles: computed(s.array(roleSummary.schema)),
})
/** Response contract (OpenAPI). */
export const userSchema = named('User', user.schema)
/** What `sort` accepts on the user list (and its export). */
export const userSort = sortable(user, [
  'id',
  'account',
  'nickname',
  'email',
  'status',
  'lastLoginAt',
  'createdAt',
  'updatedAt',
])
/**
 * Columns of the CSV export: roles by code; no lock state (read per account from the limiter's
 * store for a page, not a property of the account) and no role ids (the codes say it).
 */
export const userCsv = csvColumns(user, {
  omit: ['lockedUntil', 'roleIds'],
  format: { roles: (roles: { code: string }[]) => roles.map((role) => role.code).join(' ') },
})

/** A role as an account's answer reads it: the summary's fields, from a model or a plain row. */
export type RoleSummaryFields = Pick<Role, (typeof roleSummary.keys)[number]>

/**
 * What the transformer reads: the User model, or a plain row of the users list with the same
 * fields (app/services/admin/user_list.ts), its roles, and the lock state the user service sets
 * in `$extras`.
 */
export type ShownUser = Pick<User, (typeof user.keys)[number]> & {
  roles: RoleSummaryFields[]
  $extras: { lockedUntil?: string | null }
}

/**
 * An administrator account as the admin API shows it. Fields are picked, never spread: the
 * password digest and tokenVersion cannot leak even if the model gains columns.
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
