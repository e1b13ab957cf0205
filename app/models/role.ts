import { BaseModel, column, manyToMany } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'
import type { ManyToMany } from '@adonisjs/lucid/types/relations'
import Menu from '#models/menu'

export type RoleStatus = 'enabled' | 'disabled'

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

  @manyToMany(() => Menu, { pivotTable: 'role_menus', pivotTimestamps: false })
  declare menus: ManyToMany<typeof Menu>

  get isSuperAdmin() {
    return this.code === SUPER_ADMIN_ROLE
  }
}
