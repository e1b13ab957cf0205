import { computed, enabledStatus, s, shape, sortable } from '#openapi/schema'
import { csvColumns } from '#resources/csv_columns'
import { roleSummary } from '#resources/roles'
import type User from '#models/user'
import type Role from '#models/role'

/** A password's length bounds (the policy, app/services/password_policy.ts, says the rest). */
export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 128

/** The signed-in administrator's own profile; the admin `user` shape extends it. */
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
export const ownUser = shape({
  ...currentUser.properties,
  lastSignIn: s.nullable(s.object({ at: s.dateTime(), ip: s.nullable(s.string()) })),
  failedSinceLastSignIn: s.integer({
    description: 'Failed password checks since the previous sign-in (lastSignIn)',
  }),
})

/**
 * An administrator account as the admin API shows it. Fields are picked, never spread: the
 * password digest and tokenVersion cannot leak even if the model gains columns.
 */
export const user = shape({
  ...currentUser.properties,
  updatedAt: s.dateTime(),
  deptId: s.nullable(s.integer()),
  lockedUntil: computed(s.nullable(s.dateTime())),
  roleIds: computed(s.array(s.integer())),
  roles: computed(s.array(roleSummary.schema)),
})
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
