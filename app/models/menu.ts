import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'

export type MenuType = 'directory' | 'menu' | 'button'
export const MENU_TYPES: readonly MenuType[] = ['directory', 'menu', 'button']

/**
 * A node of the menu tree: a directory, a page (menu) bound to a frontend route/component, or a
 * button permission carrying a permission code such as `system:user:create`.
 */
export default class Menu extends withTimestamps(BaseModel) {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare parentId: number | null

  @column()
  declare type: MenuType

  @column()
  declare name: string

  @column()
  declare path: string | null

  @column()
  declare component: string | null

  @column()
  declare icon: string | null

  @column()
  declare permission: string | null

  @column()
  declare sort: number

  @column({ consume: (value) => Boolean(value) })
  declare visible: boolean

  @column()
  declare status: 'enabled' | 'disabled'
}
