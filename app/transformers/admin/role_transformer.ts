import { BaseTransformer } from '@adonisjs/core/transformers'
import type Role from '#models/role'

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
