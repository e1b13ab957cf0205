import { BaseTransformer } from '@adonisjs/core/transformers'
import type Menu from '#models/menu'
import { enabledStatus, named, omit, s, shape, sortable } from '#openapi/schema'
import { MENU_TYPES } from '#models/menu'

/** A node of the menu tree together with its children, as built by the menu service. */
export type MenuNode = { menu: Menu; children: MenuNode[] }

const menu = shape({
  id: s.integer(),
  parentId: s.nullable(s.integer()),
  type: s.enum(MENU_TYPES),
  name: s.string(),
  path: s.nullable(s.string()),
  component: s.nullable(s.string()),
  icon: s.nullable(s.string()),
  permission: s.nullable(s.string()),
  sort: s.integer(),
  visible: s.boolean(),
  status: enabledStatus(),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
/** Response contract (OpenAPI): a menu node, flat or in the editing tree. */
export const menuSchema = named('Menu', menu.schema)
/** What `sort` accepts on the flat menu list. */
export const menuSort = sortable(menu, [
  'id',
  'name',
  'type',
  'path',
  'permission',
  'sort',
  'status',
  'createdAt',
  'updatedAt',
])
export const menuTreeSchema = named(
  'MenuTree',
  s.object({ ...menu.properties, children: s.array(s.ref('MenuTree')) })
)
/** The sidebar of /api/auth/me (AccessSnapshot): enabled pages only, so no status or buttons. */
export const sidebarMenuSchema = named(
  'SidebarMenu',
  s.object({
    ...omit(menu.properties, 'status', 'createdAt', 'updatedAt'),
    type: s.enum(['directory', 'menu']),
    children: s.array(s.ref('SidebarMenu')),
  })
)

/** Menu nodes: flat (`toObject`) or as the nested editing tree (`MenuTreeTransformer`). */
export default class MenuTransformer extends BaseTransformer<Menu> {
  toObject() {
    return this.pick(this.resource, menu.keys)
  }
}

type TreeObject = Pick<Menu, (typeof menu.keys)[number]> & { children: TreeObject[] }

export class MenuTreeTransformer extends BaseTransformer<MenuNode> {
  toObject(): TreeObject {
    const { children } = this.resource
    return {
      ...this.pick(this.resource.menu, menu.keys),
      children: children.map((child) => new MenuTreeTransformer(child).toObject()),
    }
  }
}
