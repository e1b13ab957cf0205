import vine from '@vinejs/vine'
import {
  idField,
  idListField,
  optionalText,
  exportFields,
  pageFields,
  sortField,
  statusField,
} from '#validators/admin/common'
import { PASSWORD_MAX, userSort } from '#resources/users'
import { emailAddress, line } from '#validators/text'

/**
 * Request shapes of /api/admin/users. Only the fields listed here reach the services: VineJS
 * drops every other key, so `tokenVersion`, `password` (outside create and reset) or `id` in a
 * body are ignored. The password policy itself (length, not the account, not common) is applied
 * by the service, the same one the ace commands use.
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

// Bounded before hashing so a huge body is not hashed; the policy gives the precise message.
const password = () => vine.string().minLength(1).maxLength(PASSWORD_MAX)

/** What the user list filters and orders by; its export takes the same. */
const userFilters = {
  keyword: optionalText(64),
  status: statusField().optional(),
  roleId: idField().optional(),
  /** A department and every department below it. */
  deptId: idField().optional(),
  sort: sortField(userSort),
}

export const listUsersValidator = vine.create({ ...pageFields, ...userFilters })
export const exportUsersValidator = vine.create({ ...exportFields, ...userFilters })

export const createUserValidator = vine.create({
  account: account(),
  password: password(),
  nickname: nickname().optional(),
  email: email(),
  status: statusField().optional(),
  roleIds: idListField().optional(),
  deptId: idField().nullable().optional(),
})

export const updateUserValidator = vine.create({
  nickname: nickname().optional(),
  email: email(),
  status: statusField().optional(),
  deptId: idField().nullable().optional(),
})

export const assignRolesValidator = vine.create({
  roleIds: idListField(),
})

export const resetPasswordValidator = vine.create({
  password: password(),
})

/** `?dryRun=`: an import writes only when told `false`. */
export const importUsersValidator = vine.create({ dryRun: vine.boolean().optional() })

/**
 * One row of an import file (app/services/admin/user_import.ts), cells as text: the create
 * fields but the password (generated), roles by code.
 */
export const importUserRowValidator = vine.create({
  account: account(),
  nickname: nickname().optional(),
  email: email(),
  status: statusField().optional(),
  deptId: idField().optional(),
  roles: vine.array(line(64).minLength(1)).maxLength(50),
})
