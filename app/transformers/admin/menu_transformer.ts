import { BaseTransformer } from '@adonisjs/core/transformers'
import type Menu from '#models/menu'

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
