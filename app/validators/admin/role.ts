import vine from '@vinejs/vine'
import { DATA_SCOPES } from '#models/role'
import {
  idListField,
  listValidator,
  nullableLines,
  optionalText,
  sortOrderField,
  statusField,
} from '#validators/admin/common'
import { roleSort } from '#resources/roles'
import { line } from '#validators/text'

/**
 * Request shapes of /api/admin/roles. `isSystem` is not accepted from a body (VineJS drops it):
 * only the seeder creates system roles.
 */
const code = () =>
  line(64)
    .minLength(2)
    .regex(/^[a-z][a-z0-9_-]*$/)
const name = () => line(64).minLength(1)

export const listRolesValidator = listValidator(roleSort, {
  keyword: optionalText(64),
  status: statusField().optional(),
})

export const createRoleValidator = vine.create({
  code: code(),
  name: name(),
  status: statusField().optional(),
  sort: sortOrderField().optional(),
  remark: nullableLines(500),
  menuIds: idListField().optional(),
  /** `self` when left out (least privilege). */
  dataScope: vine.enum(DATA_SCOPES).optional(),
  /** The departments of a `custom` scope (refused with any other scope). */
  deptIds: idListField().optional(),
})

export const updateRoleValidator = vine.create({
  code: code().optional(),
  name: name().optional(),
  status: statusField().optional(),
  sort: sortOrderField().optional(),
  remark: nullableLines(500),
  dataScope: vine.enum(DATA_SCOPES).optional(),
  deptIds: idListField().optional(),
})

export const assignMenusValidator = vine.create({
  menuIds: idListField(),
})
