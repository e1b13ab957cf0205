import vine from '@vinejs/vine'
import {
  idListField,
  optionalText,
  pageFields,
  sortField,
  statusField,
} from '#validators/admin/common'
import { roleSort, roleWrites } from '#resources/roles'

/** Request shapes of /api/admin/roles; the writable fields: app/resources/roles.ts. */
export const listRolesValidator = vine.create({
  ...pageFields,
  keyword: optionalText(64),
  status: statusField().optional(),
  sort: sortField(roleSort),
})

export const createRoleValidator = vine.create(roleWrites.create())

export const updateRoleValidator = vine.create(roleWrites.update())

export const assignMenusValidator = vine.create({
  menuIds: idListField(),
})
