import vine from '@vinejs/vine'
import {
  idField,
  optionalText,
  pageFields,
  plainText,
  sortField,
  statusField,
} from '#validators/admin/common'
import { deptSort } from '#resources/depts'
import { line } from '#validators/text'

/**
 * Request shapes of /api/admin/depts. The tree rules (no cycle, the parent exists, who may move
 * what) are the department service's and DeptPolicy's.
 */
const name = () => line(64).minLength(1).use(plainText())
const sort = () => vine.number().withoutDecimals().min(0).max(1_000_000)

export const listDeptsValidator = vine.create({
  ...pageFields,
  parentId: idField().optional(),
  keyword: optionalText(64),
  status: statusField().optional(),
  sort: sortField(deptSort),
})

export const createDeptValidator = vine.create({
  parentId: idField().nullable().optional(),
  name: name(),
  sort: sort().optional(),
  status: statusField().optional(),
})

export const updateDeptValidator = vine.create({
  parentId: idField().nullable().optional(),
  name: name().optional(),
  sort: sort().optional(),
  status: statusField().optional(),
})
