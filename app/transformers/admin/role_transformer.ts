import { BaseTransformer } from '@adonisjs/core/transformers'
import type Role from '#models/role'
import { named, s } from '#openapi/schema'

const FIELDS = [
  'id',
  'code',
  'name',
  'status',
  'isSystem',
  'sort',
  'remark',
  'createdAt',
  'updatedAt',
] as const

/** Response contract (OpenAPI): a role in lists, and with its menu ids on the detail. */
export const roleSchema = named(
  'Role',
  s.object({
    id: s.integer(),
    code: s.string(),
    name: s.string(),
    status: s.enum(['enabled', 'disabled']),
    isSystem: s.boolean(),
    sort: s.integer(),
    remark: s.nullable(s.string()),
    createdAt: s.dateTime(),
    updatedAt: s.dateTime(),
  })
)
export const roleDetailSchema = named(
  'RoleDetail',
  s.object({ ...(roleSchema.properties as object), menuIds: s.array(s.integer()) })
)

/** A role in lists (`toObject`) and on its detail page with the ids of its menus (`toDetail`). */
export default class RoleTransformer extends BaseTransformer<Role> {
  toObject() {
    return this.pick(this.resource, FIELDS)
  }

  toDetail() {
    return {
      ...this.pick(this.resource, FIELDS),
      // Preloaded by the role service for the detail; sorted for a stable answer.
      menuIds: (this.resource.menus ?? []).map((menu) => menu.id).sort((a, b) => a - b),
    }
  }
}
