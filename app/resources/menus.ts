import type Menu from '#models/menu'
import { MENU_TYPES } from '#models/menu'
import { enabledStatus, s, shape, sortable } from '#openapi/schema'

/** A node of the menu tree together with its children, as built by the menu service. */
export type MenuNode = { menu: Menu; children: MenuNode[] }

export const menu = shape({
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
