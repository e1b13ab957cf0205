import { BaseSeeder } from '@adonisjs/lucid/seeders'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import db from '@adonisjs/lucid/services/db'
import Role, { SUPER_ADMIN_ROLE } from '#models/role'
import Menu from '#models/menu'
import Dept from '#models/dept'
import { BASE_MENU_TREE, type MenuSeed } from '#auth/permissions'
import { type Localized, type SeedLocale, seedLocale } from '#database/seed_locale'

const SUPER_ADMIN: { name: Localized; remark: Localized } = {
  name: { 'en': 'Super administrator', 'zh-CN': '超级管理员' },
  remark: { 'en': 'Holds every permission; protected.', 'zh-CN': '拥有全部权限；受保护。' },
}
/** The English name is also the one its migration (1763800000050) gives the root department. */
const ROOT_DEPT: Localized = { 'en': 'Head office', 'zh-CN': '总部' }

/**
 * The protected super-admin role, the root department and the base menu tree with a button node for every permission
 * code. Idempotent: existing rows are found (role by code, button by permission code, other nodes
 * by parent and path) and left as they are, so seeding twice creates nothing new and never
 * overwrites what an administrator changed. Names in the SEED_LOCALE language.
 */
export default class RbacSeeder extends BaseSeeder {
  async run() {
    const locale = seedLocale()
    await db.transaction(async (trx) => {
      await Role.firstOrCreate(
        { code: SUPER_ADMIN_ROLE },
        {
          name: SUPER_ADMIN.name[locale],
          status: 'enabled',
          isSystem: true,
          sort: 0,
          remark: SUPER_ADMIN.remark[locale],
        },
        { client: trx }
      )
      await this.seedMenus(BASE_MENU_TREE, null, locale, trx)
      // The root department: its migration creates it, named in English; it takes the seed's
      // language while it still has that name. The super-admin role keeps `all`.
      const root = await Dept.query({ client: trx }).whereNull('parent_id').first()
      if (!root) {
        await Dept.create(
          { parentId: null, name: ROOT_DEPT[locale], sort: 0, status: 'enabled' },
          { client: trx }
        )
      } else if (root.name === ROOT_DEPT.en && locale !== 'en') {
        await root.merge({ name: ROOT_DEPT[locale] }).save()
      }
    })
  }

  private async seedMenus(
    nodes: MenuSeed[],
    parentId: number | null,
    locale: SeedLocale,
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
            name: node.name[locale],
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
      if (node.children) await this.seedMenus(node.children, menu.id, locale, trx)
    }
  }
}
