import { BaseSeeder } from '@adonisjs/lucid/seeders'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import db from '@adonisjs/lucid/services/db'
import Role, { SUPER_ADMIN_ROLE } from '#models/role'
import Menu from '#models/menu'
import Dept from '#models/dept'
import { BASE_MENU_TREE, type MenuSeed } from '#auth/permissions'

/**
 * The protected super-admin role, the root department and the base menu tree with a button node for every permission
 * code. Idempotent: existing rows are found (role by code, button by permission code, other nodes
 * by parent and path) and left as they are, so seeding twice creates nothing new and never
 * overwrites what an administrator changed.
 */
export default class RbacSeeder extends BaseSeeder {
  async run() {
    await db.transaction(async (trx) => {
      await Role.firstOrCreate(
        { code: SUPER_ADMIN_ROLE },
        {
          name: 'Super administrator',
          status: 'enabled',
          isSystem: true,
          sort: 0,
          remark: 'Holds every permission; protected.',
        },
        { client: trx }
      )
      await this.seedMenus(BASE_MENU_TREE, null, trx)
      // The root department (its migration creates it too); the super-admin role keeps `all`.
      if (!(await Dept.query({ client: trx }).whereNull('parent_id').first())) {
        await Dept.create(
          { parentId: null, name: 'Head office', sort: 0, status: 'enabled' },
          { client: trx }
        )
      }
    })
  }

  private async seedMenus(
    nodes: MenuSeed[],
    parentId: number | null,
    trx: TransactionClientContract
  ) {
    for (const node of nodes) {
      const query = Menu.query({ client: trx })
      if (node.type === 'button') query.where('permission', node.permission!)
      else {
        query.where('type', node.type).where('path', node.path!)
        if (parentId === null) query.whereNull('parent_id')
        else query.where('parent_id', parentId)
      }
      let menu = await query.first()
      if (!menu) {
        menu = await Menu.create(
          {
            parentId,
            type: node.type,
            name: node.name,
            path: node.path ?? null,
            component: node.component ?? null,
            icon: node.icon ?? null,
            permission: node.permission ?? null,
            sort: node.sort,
            visible: true,
            status: 'enabled',
          },
          { client: trx }
        )
      }
      if (node.children) await this.seedMenus(node.children, menu.id, trx)
    }
  }
}
