import { BaseTransformer } from '@adonisjs/core/transformers'
import type Menu from '#models/menu'
import { named, omit, s } from '#openapi/schema'
import { type MenuNode, menu } from '#resources/menus'

/** Response contract (OpenAPI): a menu node, flat or in the editing tree. */
export const menuSchema = named('Menu', menu.schema)
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
