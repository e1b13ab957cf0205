import { BaseTransformer } from '@adonisjs/core/transformers'
import type Menu from '#models/menu'
import { named, s } from '#openapi/schema'
import { MENU_TYPES } from '#models/menu'

const FIELDS = [
  'id',
  'parentId',
  'type',
  'name',
  'path',
  'component',
  'icon',
  'permission',
  'sort',
  'visible',
  'status',
  'createdAt',
  'updatedAt',
] as const

/** A node of the menu tree together with its children, as built by the menu service. */
export type MenuNode = { menu: Menu; children: MenuNode[] }

const menuFields = {
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
  status: s.enum(['enabled', 'disabled']),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
}
/** Response contract (OpenAPI): a menu node, flat or in the editing tree. */
export const menuSchema = named('Menu', s.object(menuFields))
export const menuTreeSchema = named(
  'MenuTree',
  s.object({ ...menuFields, children: s.array(s.ref('MenuTree')) })
)

/** Menu nodes: flat (`toObject`) or as the nested editing tree (`MenuTreeTransformer`). */
export default class MenuTransformer extends BaseTransformer<Menu> {
  toObject() {
    return this.pick(this.resource, FIELDS)
  }
}

type TreeObject = Pick<Menu, (typeof FIELDS)[number]> & { children: TreeObject[] }

export class MenuTreeTransformer extends BaseTransformer<MenuNode> {
  toObject(): TreeObject {
    return toTreeObject(this.resource)
  }
}

function toTreeObject(node: MenuNode): TreeObject {
  const picked = {} as Pick<Menu, (typeof FIELDS)[number]>
  for (const key of FIELDS) (picked as any)[key] = node.menu[key]
  return { ...picked, children: node.children.map(toTreeObject) }
}
