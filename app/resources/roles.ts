import { DATA_SCOPES } from '#models/role'
import vine from '@vinejs/vine'
import { enabledStatus, s, shape, sortable } from '#openapi/schema'
import { idListField, nullableLines, sortOrder, statusField } from '#validators/admin/common'
import { line } from '#validators/text'
import { writable } from '#validators/writable'

/** A role as other resources show it (a user's roles, /me). */
export const roleSummary = shape({
  id: s.integer(),
  code: s.string(),
  name: s.string(),
  status: enabledStatus(),
})
export const role = shape({
  ...roleSummary.properties,
  isSystem: s.boolean(),
  sort: s.integer(),
  remark: s.nullable(s.string()),
  dataScope: s.enum(DATA_SCOPES),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
/** What `sort` accepts on the role list. */
export const roleSort = sortable(role, [
  'id',
  'code',
  'name',
  'status',
  'sort',
  'createdAt',
  'updatedAt',
])

/**
 * What a request writes (app/validators/writable.ts: the validators of
 * app/validators/admin/role.ts and a new role's defaults derive from it). `isSystem` is not
 * among them: only the seeder creates system roles.
 */
export const roleWrites = writable({
  code: {
    rule: () =>
      line(64)
        .minLength(2)
        .regex(/^[a-z][a-z0-9_-]*$/),
  },
  name: { rule: () => line(64).minLength(1) },
  status: { rule: () => statusField().optional(), default: 'enabled' },
  sort: { rule: () => sortOrder().optional(), default: 0 },
  remark: { rule: () => nullableLines(500), default: null },
  // Changed later through PUT /api/admin/roles/:id/menus.
  menuIds: { rule: () => idListField().optional(), update: false },
  /** Least privilege when left out. */
  dataScope: { rule: () => vine.enum(DATA_SCOPES).optional(), default: 'self' },
  /** The departments of a `custom` scope (refused with any other scope). */
  deptIds: { rule: () => idListField().optional() },
})
