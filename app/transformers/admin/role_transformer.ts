import { BaseTransformer } from '@adonisjs/core/transformers'
import type Role from '#models/role'
import { named, s } from '#openapi/schema'
import { role } from '#resources/roles'

/** Response contract (OpenAPI): a role in lists, and with its menu ids on the detail. */
export const roleSchema = named('Role', role.schema)
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
