import vine from '@vinejs/vine'
import { computed, enabledStatus, s, shape, sortable } from '#openapi/schema'
import { csvColumns } from '#resources/csv_columns'
import { roleSummary } from '#resources/roles'
import { idField, idListField, statusField } from '#validators/admin/common'
import { emailAddress, line } from '#validators/text'
import { writable } from '#validators/writable'
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

/*
| What a request writes to an account, one entry a field (app/validators/writable.ts): the
| create and update bodies (app/validators/admin/user.ts, so also the OpenAPI document), the
| import's columns and rows (app/services/admin/user_import.ts) and a new account's defaults
| (createAccount, for the API, the import, commands and the seeder) are derived from it.
*/

const account = () =>
  line(64)
    .minLength(2)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.@-]*$/)

/** Also the own profile's (app/validators/profile.ts). */
export const nickname = () => line(64)

/** Also the own profile's (app/validators/profile.ts). */
export const email = () =>
  emailAddress()
    .nullable()
    .optional()
    // Typed with undefined: a field left out stays out (the transform sees given values only).
    .transform((value): string | null | undefined => value || null)

// Bounded before hashing so a huge body is not hashed; the policy (the service's, the same for
// the ace commands: length, not the account, not common) gives the precise message.
export const password = () => vine.string().minLength(1).maxLength(PASSWORD_MAX)

export const userWrites = writable({
  account: { rule: account, update: false, import: { example: 'jdoe' } },
  // The import generates it (app/services/admin_account_service.ts, generateCredentials).
  password: { rule: password, update: false },
  nickname: {
    rule: () => nickname().optional(),
    default: (input: { account: string }) => input.account,
    import: { example: 'Jane Doe' },
  },
  email: { rule: email, default: null, import: { example: 'jane@example.com' } },
  status: {
    rule: () => statusField().optional(),
    default: 'enabled',
    import: { example: 'enabled' },
  },
  // Changed later through PUT /api/admin/users/:id/roles; the import names roles by code.
  roleIds: {
    rule: () => idListField().optional(),
    update: false,
    import: {
      column: 'roles',
      rule: () => vine.array(line(64).minLength(1)).maxLength(50),
      cell: (text: string) => text.split(/[\s|]+/).filter(Boolean),
    },
  },
  // None: seen by `all` scopes only.
  deptId: { rule: () => idField().nullable().optional(), default: null, import: {} },
})
