import { DATA_SCOPES } from '#models/role'
import { enabledStatus, s, shape, sortable } from '#openapi/schema'

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
