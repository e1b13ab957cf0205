import { BaseTransformer } from '@adonisjs/core/transformers'
import { DATA_SCOPES, type default as Role } from '#models/role'
import { enabledStatus, named, s, shape, sortable } from '#openapi/schema'

/** A role as other resources show it (a user's roles, /me). */
export const roleSummary = shape({
  id: s.integer(),
  code: s.string(),
  name: s.string(),
  status: enabledStatus(),
})
const role = shape({
  ...roleSummary.properties,
  isSystem: s.boolean(),
  sort: s.integer(),
  remark: s.nullable(s.string()),
  dataScope: s.enum(DATA_SCOPES),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
/** Response contract (OpenAPI): a role in lists, and with its menu ids on the detail. */
export const roleSchema = named('Role', role.schema)
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
export const roleDetailSchema = named(
  'RoleDetail',
  s.object({ ...role.properties, menuIds: s.array(s.integer()), deptIds: s.array(s.integer()) })
)

/** A role in lists (`toObject`) and on its detail page with the ids of its menus (`toDetail`). */
export default class RoleTransformer extends BaseTransformer<Role> {
  toObject() {
    return this.pick(this.resource, role.keys)
  }

  toDetail() {
    return {
      ...this.toObject(),
      // Preloaded by the role service for the detail; sorted for a stable answer.
      menuIds: (this.resource.menus ?? []).map((menu) => menu.id).sort((a, b) => a - b),
      // The departments of a `custom` scope (empty otherwise).
      deptIds: (this.resource.depts ?? []).map((dept) => dept.id).sort((a, b) => a - b),
    }
  }
}
