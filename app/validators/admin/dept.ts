import vine from '@vinejs/vine'
import {
  idField,
  listValidator,
  optionalText,
  plainText,
  sortOrderField,
  statusField,
} from '#validators/admin/common'
import { deptSort } from '#resources/depts'
import { line } from '#validators/text'

/**
 * Request shapes of /api/admin/depts. The tree rules (no cycle, the parent exists, who may move
 * what) are the department service's and DeptPolicy's.
 */
const name = () => line(64).minLength(1).use(plainText())

export const listDeptsValidator = listValidator(deptSort, {
  parentId: idField().optional(),
  keyword: optionalText(64),
  status: statusField().optional(),
})

export const createDeptValidator = vine.create({
  parentId: idField().nullable().optional(),
  name: name(),
  sort: sortOrderField().optional(),
  status: statusField().optional(),
})

export const updateDeptValidator = vine.create({
  parentId: idField().nullable().optional(),
  name: name().optional(),
  sort: sortOrderField().optional(),
  status: statusField().optional(),
})
