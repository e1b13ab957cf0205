import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'

export type DeptStatus = 'enabled' | 'disabled'

/**
 * A department: a node of the tree that data scopes are measured on (roles.data_scope,
 * app/services/admin/data_scope.ts). Accounts belong to one (users.dept_id).
 */
export default class Dept extends withTimestamps(BaseModel) {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare parentId: number | null

  @column()
  declare name: string

  @column()
  declare sort: number

  @column()
  declare status: DeptStatus

  /** The first root department (seeded): where the seeded administrator belongs. */
  static root() {
    return this.query().whereNull('parent_id').orderBy('id').firstOrFail()
  }
}
