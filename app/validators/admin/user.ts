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
import { password, userSort, userWrites } from '#resources/users'

/**
 * Request shapes of /api/admin/users. The writable fields are declared once, beside the
 * account's response shape (`userWrites` in app/resources/users.ts); the create, update and
 * import-row validators are derived from it. The body check refuses every other key
 * (app/core/body_shape.ts), so `tokenVersion` or `id` in a body is a 422.
 */

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

export const createUserValidator = vine.create(userWrites.create())

export const updateUserValidator = vine.create(userWrites.update())

export const assignRolesValidator = vine.create({
  roleIds: idListField(),
})

export const resetPasswordValidator = vine.create({ password: password() })

/** `?dryRun=`: an import writes only when told `false`. */
export const importUsersValidator = vine.create({ dryRun: vine.boolean().optional() })

/**
 * One row of an import file (app/services/admin/user_import.ts), cells as text: the create
 * fields but the password (generated), roles by code.
 */
export const importUserRowValidator = vine.create(userWrites.importRow())
