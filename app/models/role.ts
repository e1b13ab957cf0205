import { BaseModel, column, manyToMany } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'
import type { ManyToMany } from '@adonisjs/lucid/types/relations'
import Menu from '#models/menu'
import Dept from '#models/dept'

export type RoleStatus = 'enabled' | 'disabled'

/**
 * Which records a role shows its holder (app/services/admin/data_scope.ts): every one, those of
 * the holder's department and below, of the holder's department, the holder's own, or those of
 * the departments listed in role_depts.
 */
export const DATA_SCOPES = ['all', 'dept_and_children', 'dept', 'self', 'custom'] as const
export type DataScopeKind = (typeof DATA_SCOPES)[number]

/** Code of the seeded, system-protected role that holds every permission implicitly. */
export const SUPER_ADMIN_ROLE = 'super_admin'

export default class Role extends withTimestamps(BaseModel) {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare code: string

  @column()
  declare name: string

  @column()
  declare status: RoleStatus

  @column({ consume: (value) => Boolean(value) })
  declare isSystem: boolean

  @column()
  declare sort: number

  @column()
  declare remark: string | null

  @column()
  declare dataScope: DataScopeKind

  /** The departments of a `custom` scope. */
  @manyToMany(() => Dept, { pivotTable: 'role_depts', pivotTimestamps: false })
  declare depts: ManyToMany<typeof Dept>

  @manyToMany(() => Menu, { pivotTable: 'role_menus', pivotTimestamps: false })
  declare menus: ManyToMany<typeof Menu>

  get isSuperAdmin() {
    return this.code === SUPER_ADMIN_ROLE
  }
}
