import vine from '@vinejs/vine'
import { idListField, listValidator, optionalText, statusField } from '#validators/admin/common'
import { roleSort, roleWrites } from '#resources/roles'

/** Request shapes of /api/admin/roles; the writable fields: app/resources/roles.ts. */
export const listRolesValidator = listValidator(roleSort, {
  keyword: optionalText(64),
  status: statusField().optional(),
})

export const createRoleValidator = vine.create(roleWrites.create())

export const updateRoleValidator = vine.create(roleWrites.update())

export const assignMenusValidator = vine.create({
  menuIds: idListField(),
})
