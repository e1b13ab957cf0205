import vine from '@vinejs/vine'
import { DATA_SCOPES } from '#models/role'
import {
  idListField,
  nullableText,
  optionalText,
  pageFields,
  sortField,
  statusField,
} from '#validators/admin/common'
import { roleSort } from '#resources/roles'

/**
 * Request shapes of /api/admin/roles. `isSystem` is not accepted from a body (VineJS drops it):
 * only the seeder creates system roles.
 */
const code = () =>
  vine
    .string()
    .trim()
    .minLength(2)
    .maxLength(64)
    .regex(/^[a-z][a-z0-9_-]*$/)

const sort = () => vine.number().withoutDecimals().min(0).max(1_000_000)

export const listRolesValidator = vine.create({
  ...pageFields,
  keyword: optionalText(64),
  status: statusField().optional(),
  sort: sortField(roleSort),
})

export const createRoleValidator = vine.create({
  code: code(),
  name: vine.string().trim().minLength(1).maxLength(64),
  status: statusField().optional(),
  sort: sort().optional(),
  remark: nullableText(500),
  menuIds: idListField().optional(),
  /** `self` when left out (least privilege). */
  dataScope: vine.enum(DATA_SCOPES).optional(),
  /** The departments of a `custom` scope (refused with any other scope). */
  deptIds: idListField().optional(),
})

export const updateRoleValidator = vine.create({
  code: code().optional(),
  name: vine.string().trim().minLength(1).maxLength(64).optional(),
  status: statusField().optional(),
  sort: sort().optional(),
  remark: nullableText(500),
  dataScope: vine.enum(DATA_SCOPES).optional(),
  deptIds: idListField().optional(),
})

export const assignMenusValidator = vine.create({
  menuIds: idListField(),
})
