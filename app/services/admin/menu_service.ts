import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { ModelAttributes } from '@adonisjs/lucid/types/model'
import type { Infer } from '@vinejs/vine/types'
import Menu, { type MenuType } from '#models/menu'
import { FieldError, conflict } from '#exceptions/api_exception'
import { type Actor, BY_SORT, ResourceService, findOr404, forest } from '#services/admin/common'
import { type MenuNode, menuSort } from '#resources/menus'
import { createAudited, deleteAudited, saveAudited } from '#services/admin/writes'
import { definedOnly } from '#core/defined_only'
import MenuPolicy from '#policies/menu_policy'
import { subtreeOf } from '#policies/grant_rule'
import { rolesHoldingMenu } from '#policies/holdings'
import type {
  createMenuValidator,
  listMenusValidator,
  updateMenuValidator,
} from '#validators/admin/menu'

/** The columns a request may set: the record the type rules are checked on. */
type MenuFields = Omit<ModelAttributes<Menu>, 'id' | 'createdAt' | 'updatedAt'>

/** The parent type each node type may live under (null = the root). */
const ALLOWED_PARENTS: Record<MenuType, (MenuType | null)[]> = {
  directory: [null, 'directory'],
  menu: [null, 'directory'],
  button: ['menu'],
}

/** parent id of every menu: the tree is small (a few hundred nodes), one query reads it all. */
export async function parentMap(client: QueryClientContract): Promise<Map<number, number | null>> {
  const rows: { id: number | string; parent_id: number | string | null }[] = await client
    .from('menus')
    .select('id', 'parent_id')
  return new Map(
    rows.map((row) => [Number(row.id), row.parent_id === null ? null : Number(row.parent_id)])
  )
}

/** The given menu ids plus all of their ancestors, read from a parent map. */
export function ancestorClosure(
  ids: number[],
  parents: ReadonlyMap<number, number | null>
): number[] {
  const result = new Set<number>()
  for (const id of ids) {
    let current: number | null | undefined = id
    // `result.has` stops at a known chain, and on a cycle in corrupted data.
    while (current !== null && current !== undefined && !result.has(current)) {
      result.add(current)
      current = parents.get(current)
    }
  }
  return [...result]
}

/** The given menu ids plus all of their ancestors (ids assumed to exist). */
export async function withAncestors(
  ids: number[],
  client: QueryClientContract = db.connection()
): Promise<number[]> {
  if (ids.length === 0) return []
  return ancestorClosure(ids, await parentMap(client))
}

/**
 * The menu tree (directories, pages and buttons) for editing. Type-specific rules are checked on
 * the merged record, so a partial update cannot leave a node in a shape a create would refuse.
 */
export default class MenuService extends ResourceService<
  typeof Menu,
  Infer<typeof listMenusValidator>
> {
  /**
   * Every node, or only the ids in `only` (a holder's nodes: with their ancestors, as held nodes
   * always come, so the tree stays connected).
   */
  async tree(only?: ReadonlySet<number>): Promise<MenuNode[]> {
    const query = Menu.query().orderBy('sort', 'asc').orderBy('id', 'asc')
    if (only) query.whereIn('id', [...only])
    return forest(await query, (menu, children: MenuNode[]) => ({ menu, children }))
  }

  constructor() {
    super(Menu, {
      keyword: ['name', 'path', 'permission'],
      exact: ['type', 'status', 'parentId'],
      sortable: menuSort,
      order: BY_SORT,
    })
  }

  async create(actor: Actor, data: Infer<typeof createMenuValidator>) {
    const fields: MenuFields = {
      parentId: data.parentId ?? null,
      type: data.type,
      name: data.name,
      path: data.path ?? null,
      component: data.component ?? null,
      icon: data.icon ?? null,
      permission: data.permission ?? null,
      sort: data.sort ?? 0,
      visible: data.visible ?? true,
      status: data.status ?? 'enabled',
    }
    await this.assertShape(fields, await this.parentOf(fields.parentId))
    await this.assertPermissionFree(fields.permission, null)
    await actor.bouncer
      .with(MenuPolicy)
      .authorize('create', { permission: fields.permission, parentId: fields.parentId })
    return createAudited(actor, 'menu', Menu, fields)
  }

  async update(actor: Actor, id: number, data: Infer<typeof updateMenuValidator>) {
    // Every fact the policy and the checks read comes from the write's own transaction.
    return db.transaction(async (trx) => {
      const menu = await findOr404(Menu, id, trx)
      const parents = await parentMap(trx)
      await actor.bouncer.with(MenuPolicy).authorize(
        'update',
        { id: menu.id, subtree: subtreeOf(menu.id, parents) },
        {
          permission: data.permission !== menu.permission ? data.permission : undefined,
          parentId: data.parentId !== menu.parentId ? data.parentId : undefined,
        }
      )
      const fields: MenuFields = {
        parentId: menu.parentId,
        type: menu.type,
        name: menu.name,
        path: menu.path,
        component: menu.component,
        icon: menu.icon,
        permission: menu.permission,
        sort: menu.sort,
        visible: menu.visible,
        status: menu.status,
        ...definedOnly(data),
      }

      const parentChanged = fields.parentId !== menu.parentId
      if (parentChanged && fields.parentId !== null) {
        if (fields.parentId === menu.id) {
          throw new FieldError('parentId', 'menuOwnParent', 'notSelf')
        }
        for (let at = parents.get(fields.parentId); at !== null && at !== undefined;) {
          if (at === menu.id) {
            throw new FieldError('parentId', 'menuBelowDescendant', 'notDescendant')
          }
          at = parents.get(at)
        }
      }
      await this.assertShape(fields, await this.parentOf(fields.parentId, trx))
      if (fields.type !== menu.type) {
        const children = await Menu.query({ client: trx })
          .where('parent_id', menu.id)
          .select('type')
        if (children.some((child) => !ALLOWED_PARENTS[child.type].includes(fields.type))) {
          throw new FieldError('type', 'menuChildrenType', 'children')
        }
      }
      await this.assertPermissionFree(fields.permission, menu.id, trx)
      if (parentChanged && fields.parentId !== null) {
        await this.assertHoldersKeepChain(trx, menu.id, fields.parentId)
      }
      await saveAudited(trx, actor, 'menu', menu, () => menu.merge(fields))
      return menu
    })
  }

  /**
   * A move never writes role_menus: granting the new ancestors to the roles holding the node
   * would be a grant nobody checked. A node only counts when its whole chain is granted, so a
   * move that would need new ancestors for some role is refused (409); grant them the new parent
   * first (PUT roles/:id/menus, which the grant rule checks), then move.
   */
  private async assertHoldersKeepChain(trx: QueryClientContract, menuId: number, parentId: number) {
    const holders = await rolesHoldingMenu(trx, menuId)
    if (holders.length === 0) return
    const chain = await withAncestors([parentId], trx)
    const rows: { role_id: number | string }[] = await trx
      .from('role_menus')
      .whereIn('role_id', holders)
      .whereIn('menu_id', chain)
      .select('role_id')
    const count = new Map<number, number>()
    for (const row of rows)
      count.set(Number(row.role_id), (count.get(Number(row.role_id)) ?? 0) + 1)
    const lacking = holders.filter((roleId) => (count.get(roleId) ?? 0) < chain.length)
    if (lacking.length) {
      throw conflict('menuMoveRolesLackParent', {
        ids: lacking.sort((a, b) => a - b).join(', '),
      })
    }
  }

  async destroy(actor: Actor, id: number) {
    const menu = await findOr404(Menu, id)
    await actor.bouncer.with(MenuPolicy).authorize('delete', {
      id: menu.id,
      subtree: subtreeOf(menu.id, await parentMap(db.connection())),
    })
    const child = await Menu.query().where('parent_id', menu.id).select('id').first()
    if (child) throw conflict('menuStillHasChildren')
    // role_menus rows go with it (FK ON DELETE CASCADE).
    await db.transaction((trx) => deleteAudited(trx, actor, 'menu', menu))
  }

  private async parentOf(parentId: number | null, client?: QueryClientContract) {
    if (parentId === null) return null
    const parent = await Menu.find(parentId, client ? { client } : undefined)
    if (!parent) throw new FieldError('parentId', 'parentMenuMissing', 'exists')
    return parent
  }

  /** Type-specific fields: a button carries a permission code under a page; others a path. */
  private async assertShape(fields: MenuFields, parent: Menu | null) {
    const parentType = parent ? parent.type : null
    if (!ALLOWED_PARENTS[fields.type].includes(parentType)) {
      const where = ALLOWED_PARENTS[fields.type].map((type) => type ?? 'root').join(' | ')
      throw new FieldError('parentId', 'menuParentType', 'parentType', { type: fields.type, where })
    }
    if (fields.type === 'button') {
      if (!fields.permission) {
        throw new FieldError('permission', 'buttonRequiresPermissionCode', 'required')
      }
      if (fields.path !== null) {
        throw new FieldError('path', 'buttonHasRoutePath', 'prohibited')
      }
      if (fields.component !== null) {
        throw new FieldError('component', 'buttonHasComponent', 'prohibited')
      }
      return
    }
    // Permission codes live on buttons only, so granting a page never grants an action.
    if (fields.permission !== null) {
      throw new FieldError('permission', 'onlyButtonCarriesPermission', 'prohibited')
    }
    if (!fields.path) {
      throw new FieldError('path', 'menuRequiresPath', 'required', { type: fields.type })
    }
    if (fields.type === 'menu' && !fields.component) {
      throw new FieldError('component', 'menuRequiresComponent', 'required')
    }
  }

  /** One button per permission code (the seeder also finds buttons by their code). */
  private async assertPermissionFree(
    permission: string | null,
    exceptId: number | null,
    client?: QueryClientContract
  ) {
    if (!permission) return
    const query = Menu.query(client ? { client } : undefined)
      .where('permission', permission)
      .select('id')
    if (exceptId !== null) query.whereNot('id', exceptId)
    if (await query.first()) throw conflict('permissionCodeAlreadyUsed')
  }
}
