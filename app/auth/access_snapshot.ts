import db from '@adonisjs/lucid/services/db'
import { SUPER_ADMIN_ROLE } from '#models/role'
import { ALL_PERMISSION_CODES } from '#auth/permissions'

export type SnapshotRole = { id: number; code: string; name: string; status: string }

export type SnapshotMenu = {
  id: number
  parentId: number | null
  type: 'directory' | 'menu' | 'button'
  name: string
  path: string | null
  component: string | null
  icon: string | null
  permission: string | null
  sort: number
  visible: boolean
}

export type MenuTreeNode = Omit<SnapshotMenu, 'permission'> & {
  permission: string | null
  children: MenuTreeNode[]
}

/**
 * What an authenticated administrator may do right now, read from the database on every request:
 * all assigned roles (with their status), the menus their enabled roles grant, and the permission
 * codes. Nothing of it is cached across requests, so a change applies to the very next request.
 *
 * Rules: a disabled role grants nothing; a disabled menu grants nothing, and neither does anything
 * below it (a node counts only when its whole ancestor chain is granted and enabled). The
 * super-admin role, while enabled, grants every menu and every permission code.
 */
export class AccessSnapshot {
  readonly permissions: ReadonlySet<string>

  constructor(
    readonly roles: SnapshotRole[],
    readonly isSuperAdmin: boolean,
    /** Effective menus, all types, sorted by (sort, id). */
    readonly menus: SnapshotMenu[]
  ) {
    const codes = new Set<string>(isSuperAdmin ? ALL_PERMISSION_CODES : [])
    for (const menu of menus) {
      if (menu.permission) codes.add(menu.permission)
    }
    this.permissions = codes
  }

  can(code: string) {
    return this.permissions.has(code)
  }

  /** The sidebar: directories and menus as a tree, buttons left out. */
  menuTree(): MenuTreeNode[] {
    return buildMenuTree(this.menus.filter((menu) => menu.type !== 'button'))
  }
}

/** Builds a tree from a flat list sorted by (sort, id); nodes whose parent is absent are dropped. */
export function buildMenuTree<T extends { id: number; parentId: number | null }>(
  flat: T[]
): (T & { children: any[] })[] {
  const nodes = new Map<number, T & { children: any[] }>()
  for (const item of flat) nodes.set(item.id, { ...item, children: [] })
  const roots: (T & { children: any[] })[] = []
  for (const node of nodes.values()) {
    if (node.parentId === null) roots.push(node)
    else nodes.get(node.parentId)?.children.push(node)
  }
  return roots
}

type Row = {
  kind: 'role' | 'menu'
  id: number
  parent_id: number | null
  type: SnapshotMenu['type'] | null
  code: string | null
  name: string
  path: string | null
  component: string | null
  icon: string | null
  permission: string | null
  sort: number
  visible: boolean | number | null
  status: string
}

/**
 * One SQL round trip, whatever the number of roles and menus: the user's roles and the distinct
 * enabled menus granted by its enabled roles (every enabled menu for an enabled super admin),
 * as one UNION ALL. Button rows (most of them) carry only what a permission check needs; the
 * display columns are read for the sidebar nodes only, which keeps the hot path's rows narrow.
 */
const SNAPSHOT_SQL = `
SELECT 'role' AS kind, r.id, NULL AS parent_id, NULL AS type, r.code, r.name, NULL AS path,
       NULL AS component, NULL AS icon, NULL AS permission, r.sort, NULL AS visible, r.status
  FROM roles r
  JOIN user_roles ur ON ur.role_id = r.id
 WHERE ur.user_id = ?
UNION ALL
SELECT 'menu' AS kind, m.id, m.parent_id, m.type, NULL AS code,
       CASE WHEN m.type = 'button' THEN NULL ELSE m.name END,
       CASE WHEN m.type = 'button' THEN NULL ELSE m.path END,
       CASE WHEN m.type = 'button' THEN NULL ELSE m.component END,
       CASE WHEN m.type = 'button' THEN NULL ELSE m.icon END,
       m.permission, m.sort, m.visible, NULL AS status
  FROM menus m
 WHERE m.status = 'enabled'
   AND (
     EXISTS (SELECT 1 FROM user_roles ur
               JOIN roles r ON r.id = ur.role_id
              WHERE ur.user_id = ? AND r.status = 'enabled' AND r.code = ?)
     OR m.id IN (SELECT rm.menu_id FROM role_menus rm
                   JOIN user_roles ur ON ur.role_id = rm.role_id
                   JOIN roles r ON r.id = rm.role_id
                  WHERE ur.user_id = ? AND r.status = 'enabled')
   )`

const bySortThenId = (a: { sort: number; id: number }, b: { sort: number; id: number }) =>
  a.sort - b.sort || a.id - b.id

export async function loadAccessSnapshot(userId: number): Promise<AccessSnapshot> {
  const result = await db.rawQuery(SNAPSHOT_SQL, [userId, userId, SUPER_ADMIN_ROLE, userId])
  const rows: Row[] = Array.isArray(result) ? result : result.rows

  const roles: (SnapshotRole & { sort: number })[] = []
  const granted = new Map<number, SnapshotMenu>()
  for (const row of rows) {
    if (row.kind === 'role') {
      roles.push({
        id: Number(row.id),
        code: row.code!,
        name: row.name ?? '',
        status: row.status,
        sort: Number(row.sort),
      })
    } else {
      granted.set(Number(row.id), {
        id: Number(row.id),
        parentId: row.parent_id === null ? null : Number(row.parent_id),
        type: row.type!,
        name: row.name ?? '',
        path: row.path,
        component: row.component,
        icon: row.icon,
        permission: row.permission,
        sort: Number(row.sort),
        visible: Boolean(row.visible),
      })
    }
  }

  // A node is effective only when its whole ancestor chain is granted and enabled.
  const effective = new Map<number, boolean>()
  const isEffective = (menu: SnapshotMenu): boolean => {
    const known = effective.get(menu.id)
    if (known !== undefined) return known
    effective.set(menu.id, false) // guards against a cycle in corrupted data
    const parent = menu.parentId === null ? null : granted.get(menu.parentId)
    const chained =
      menu.parentId === null || (parent !== undefined && parent !== null && isEffective(parent))
    effective.set(menu.id, chained)
    return chained
  }
  const menus = [...granted.values()].filter(isEffective).sort(bySortThenId)

  roles.sort(bySortThenId)
  const isSuperAdmin = roles.some(
    (role) => role.code === SUPER_ADMIN_ROLE && role.status === 'enabled'
  )
  return new AccessSnapshot(
    roles.map(({ id, code, name, status }) => ({ id, code, name, status })),
    isSuperAdmin,
    menus
  )
}
