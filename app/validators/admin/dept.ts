import vine from '@vinejs/vine'
import { idField, listValidator, optionalText, statusField } from '#validators/admin/common'
import { deptSort, deptWrites } from '#resources/depts'

/** Request shapes of /api/admin/depts; the writable fields: app/resources/depts.ts. */
export const listDeptsValidator = listValidator(deptSort, {
  parentId: idField().optional(),
  keyword: optionalText(64),
  status: statusField().optional(),
})

export const createDeptValidator = vine.create(deptWrites.create())

export const updateDeptValidator = vine.create(deptWrites.update())
