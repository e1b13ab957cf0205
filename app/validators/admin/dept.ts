import vine from '@vinejs/vine'
import { idField, optionalText, pageFields, sortField, statusField } from '#validators/admin/common'
import { deptSort, deptWrites } from '#resources/depts'

/** Request shapes of /api/admin/depts; the writable fields: app/resources/depts.ts. */
export const listDeptsValidator = vine.create({
  ...pageFields,
  parentId: idField().optional(),
  keyword: optionalText(64),
  status: statusField().optional(),
  sort: sortField(deptSort),
})

export const createDeptValidator = vine.create(deptWrites.create())

export const updateDeptValidator = vine.create(deptWrites.update())
