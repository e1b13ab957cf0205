import db from '@adonisjs/lucid/services/db'
import { preparedQuery } from '#core/prepared_query'
import { versionedCache } from '#core/cache'
import { type DataScopeKind, SUPER_ADMIN_ROLE } from '#models/role'
import type Menu from '#models/menu'
import { ALL_PERMISSION_CODES } from '#auth/permissions'
import { snapshotLookups } from '#core/operations/metrics'

export type SnapshotRole = { id: number; code: string; name: string; status: string }

type Text = 'name' | 'path' | 'component' | 'icon' | 'permission'
/** A granted menu node: the menu's own columns, without status (only enabled nodes are granted). */
export type SnapshotMenu = Pick<Menu, 'id' | 'parentId' | 'type' | Text | 'sort' | 'visible'>

export type MenuTreeNode = SnapshotMenu & { children: MenuTreeNode[] }

/**
 * Which records the administrator sees (the union over its enabled roles; app/services/admin/
 * data_scope.ts applies it): every one (`all`: an enabled `all` role, or super admin), else
 * those in `deptIds` and, with `self`, its own.
 */
export type DataScope = { all: boolean; self: boolean; deptIds: ReadonlySet<number> }

/** Sees nothing (no enabled role). */
export const NO_SCOPE: DataScope = { all: false, self: false, deptIds: new Set() }

/**
 * What an authenticated administrator may do right now: all assigned roles (with their status),
 * the menus their enabled roles grant, and the permission codes. Shared by the requests of one
 * access version (accessSnapshotFor below), so it is never mutated.
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
    /** Effective directories and pages (the sidebar), sorted by (sort, id). */
    readonly menus: SnapshotMenu[],
    /** Every effective node id, buttons included: what the user holds. */
    readonly menuIds: ReadonlySet<number>,
    /** Permission codes carried by effective nodes. */
    codes: Iterable<string>,
    /** The permission code of every effective node that carries one (for narrowedTo). */
    readonly codeOf: ReadonlyMap<number, string> = new Map(),
    /** Which records it sees (the data scope). */
    readonly scope: DataScope = isSuperAdmin ? { ...NO_SCOPE, all: true } : NO_SCOPE
  ) {
    const all = new Set<string>(isSuperAdmin ? ALL_PERMISSION_CODES : [])
    for (const code of codes) all.add(code)
    this.permissions = all
  }

  can(code: string) {
    return this.permissions.has(code)
  }

  /**
   * What an API token of this account holds (app/auth/api_tokens.ts): the codes of `codes` the
   * account holds now, never super-admin status (policies judge the token like any non-super
   * caller), and the nodes held minus those carrying a code outside that set, so the grant rule
   * counts only what the token may do as held.
   */
  narrowedTo(codes: Iterable<string>): AccessSnapshot {
    const kept = new Set<string>()
    for (const code of codes) if (this.permissions.has(code)) kept.add(code)
    const holds = (id: number) => {
      const code = this.codeOf.get(id)
      return code === undefined || kept.has(code)
    }
    return new AccessSnapshot(
      this.roles,
      false,
      this.menus.filter((menu) => holds(menu.id)),
      new Set([...this.menuIds].filter(holds)),
      kept,
      new Map([...this.codeOf].filter(([id]) => holds(id))),
      // A token sees the records its owner sees (what it may do to them is its codes).
      this.scope
    )
  }

  /** The sidebar: directories and menus as a tree, buttons left out. */
  menuTree(): MenuTreeNode[] {
    return buildMenuTree(this.menus)
  }

  #json?: string

  /**
   * The access part of `/me` (`"roles":[...],"menus":[...],"permissions":[...]`) as JSON,
   * serialized once per snapshot: a snapshot is shared by every request of its access version,
   * so a 500-menu tree is not rebuilt and re-serialized on each of them.
   */
  toJsonFragment(): string {
    this.#json ??= JSON.stringify({
      roles: this.roles,
      menus: this.menuTree(),
      permissions: [...this.permissions].sort(),
    }).slice(1, -1)
    return this.#json
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

/** A row of the snapshot statement: roles and menus in one column set (NULL where not theirs). */
type Row = Pick<SnapshotMenu, Text | 'sort'> & {
  kind: 'role' | 'menu' | 'buttons' | 'depts' | 'version'
  id: number | null
  parent_id: number | null
  type: SnapshotMenu['type'] | null
  code: string | null
  visible: boolean | number | null
  status: string
  data_scope: DataScopeKind | null
}

/**
 * One SQL round trip, whatever the number of roles and menus, returning the access version the
 * snapshot was computed at (the same statement sees one state of the database). `granted` holds the enabled menus
 * of the user's enabled roles (every enabled menu for an enabled super admin); `effective` keeps
 * those whose whole ancestor chain is granted, walking down from the roots. The result is the
 * user's roles, the effective directories and pages (the sidebar, a few dozen rows), and ONE row
 * aggregating every effective button as "id:code" (hundreds of buttons would otherwise be
 * hundreds of rows to transfer and parse on every request).
 *
 * The data scope: `seen` is the union of the departments the enabled roles show (`dept`: the
 * user's department, bound from the guard's row; `dept_and_children`: it and everything below,
 * `below` walking the tree; `custom`: role_depts), aggregated into ONE row. UNION (not UNION
 * ALL) in the walk ends it even on a cycle written by raw SQL. `all` and `self` are read from the
 * role rows.
 */
const snapshotSql = (aggregate: string, idList: string) => `
WITH RECURSIVE granted AS (
  SELECT m.id, m.parent_id, m.type, m.name, m.path, m.component, m.icon, m.permission, m.sort, m.visible
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
     )
), effective AS (
  SELECT g.* FROM granted g WHERE g.parent_id IS NULL
  UNION ALL
  SELECT g.* FROM granted g JOIN effective e ON g.parent_id = e.id
), scope_roles AS (
  SELECT r.id, r.data_scope FROM roles r
    JOIN user_roles ur ON ur.role_id = r.id
   WHERE ur.user_id = ? AND r.status = 'enabled'
), below AS (
  SELECT d.id FROM depts d
   WHERE d.id = ? AND EXISTS (SELECT 1 FROM scope_roles sr WHERE sr.data_scope = 'dept_and_children')
  UNION
  SELECT d.id FROM depts d JOIN below b ON d.parent_id = b.id
), seen AS (
  SELECT b.id FROM below b
  UNION
  SELECT d.id FROM depts d
   WHERE d.id = ? AND EXISTS (SELECT 1 FROM scope_roles sr WHERE sr.data_scope = 'dept')
  UNION
  SELECT rd.dept_id AS id FROM role_depts rd
    JOIN scope_roles sr ON sr.id = rd.role_id
   WHERE sr.data_scope = 'custom'
)
SELECT 'role' AS kind, r.id, NULL AS parent_id, NULL AS type, r.code, r.name, NULL AS path,
       NULL AS component, NULL AS icon, NULL AS permission, r.sort, NULL AS visible, r.status,
       r.data_scope
  FROM roles r
  JOIN user_roles ur ON ur.role_id = r.id
 WHERE ur.user_id = ?
UNION ALL
SELECT 'menu' AS kind, e.id, e.parent_id, e.type, NULL AS code, e.name, e.path, e.component,
       e.icon, e.permission, e.sort, e.visible, NULL AS status, NULL AS data_scope
  FROM effective e
 WHERE e.type <> 'button'
UNION ALL
SELECT 'buttons' AS kind, NULL AS id, NULL AS parent_id, NULL AS type,
       ${aggregate} AS code, NULL AS name, NULL AS path, NULL AS component, NULL AS icon,
       NULL AS permission, 0 AS sort, NULL AS visible, NULL AS status, NULL AS data_scope
  FROM effective e
 WHERE e.type = 'button'
UNION ALL
SELECT 'depts' AS kind, NULL AS id, NULL AS parent_id, NULL AS type,
       ${idList} AS code, NULL AS name, NULL AS path, NULL AS component, NULL AS icon,
       NULL AS permission, 0 AS sort, NULL AS visible, NULL AS status, NULL AS data_scope
  FROM seen s
UNION ALL
SELECT 'version' AS kind, av.version AS id, NULL AS parent_id, NULL AS type, NULL AS code,
       NULL AS name, NULL AS path, NULL AS component, NULL AS icon, NULL AS permission, 0 AS sort,
       NULL AS visible, NULL AS status, NULL AS data_scope
  FROM access_version av
 WHERE av.id = 1`

/** Buttons are joined with the ASCII unit separator, which no id or permission code contains. */
const PG_SNAPSHOT_SQL = snapshotSql(
  `string_agg(CAST(e.id AS TEXT) || ':' || COALESCE(e.permission, ''), chr(31))`,
  `string_agg(CAST(s.id AS TEXT), ',')`
)
const SQLITE_SNAPSHOT_SQL = snapshotSql(
  `group_concat(CAST(e.id AS TEXT) || ':' || COALESCE(e.permission, ''), char(31))`,
  `group_concat(CAST(s.id AS TEXT), ',')`
)

/** The values of the statement's placeholders, in their order. */
export function snapshotBindings(userId: number, deptId: number | null) {
  // -1 matches no department: the `dept` scopes of an account without one show nothing.
  const dept = deptId ?? -1
  return [userId, SUPER_ADMIN_ROLE, userId, userId, dept, dept, userId]
}

/**
 * The snapshot statement as sent on a connection of `dialect`. The tables it reads are the ones
 * that need the access-version trigger (tests/functional/access_version_triggers.spec.ts).
 */
export function snapshotSqlFor(dialect: string) {
  return dialect === 'postgres' ? PG_SNAPSHOT_SQL : SQLITE_SNAPSHOT_SQL
}

const bySortThenId = (a: { sort: number; id: number }, b: { sort: number; id: number }) =>
  a.sort - b.sort || a.id - b.id

/**
 * Snapshots by user, each with the access version it was computed at. The version is bumped by
 * database triggers on every write to roles, menus, user_roles and role_menus (migration
 * 1763800000011), and the guard reads it with the user row on every request: an entry is used
 * only while the version is unchanged, so it can never be stale. One entry per user.
 */
const snapshots = versionedCache<number, { deptId: number | null; snapshot: AccessSnapshot }>(
  'access-snapshots',
  { max: 10_000 }
)

/**
 * The snapshot of `userId` in department `deptId` (from the guard's row: users carry no
 * access-version trigger, so the department is part of the key) at access version `version`:
 * cached, or computed (1 query).
 */
export async function accessSnapshotFor(userId: number, deptId: number | null, version: number) {
  const hit = snapshots.get(userId, version)
  if (hit && hit.deptId === deptId) {
    snapshotLookups.inc({ result: 'hit' })
    return hit.snapshot
  }
  snapshotLookups.inc({ result: 'miss' })
  const computed = await loadAccessSnapshot(userId, deptId)
  // Held under the version it was computed at, which may be newer than the guard's.
  snapshots.set(userId, { deptId, snapshot: computed.snapshot }, computed.version)
  return computed.snapshot
}

export async function loadAccessSnapshot(
  userId: number,
  deptId: number | null
): Promise<{ version: number; snapshot: AccessSnapshot }> {
  const rows = await preparedQuery<Row>(
    snapshotSqlFor(db.connection().dialect.name),
    snapshotBindings(userId, deptId)
  )

  const roles: (SnapshotRole & { sort: number; dataScope: DataScopeKind })[] = []
  const deptIds = new Set<number>()
  const menus: SnapshotMenu[] = []
  const menuIds = new Set<number>()
  const codes: string[] = []
  const codeOf = new Map<number, string>()
  let version = 0
  for (const row of rows) {
    if (row.kind === 'version') {
      version = Number(row.id)
    } else if (row.kind === 'role') {
      roles.push({
        id: Number(row.id),
        code: row.code!,
        name: row.name,
        status: row.status,
        sort: Number(row.sort),
        dataScope: row.data_scope ?? 'self',
      })
    } else if (row.kind === 'menu') {
      const id = Number(row.id)
      menuIds.add(id)
      if (row.permission) {
        codes.push(row.permission)
        codeOf.set(id, row.permission)
      }
      menus.push({
        id,
        parentId: row.parent_id === null ? null : Number(row.parent_id),
        type: row.type!,
        name: row.name,
        path: row.path,
        component: row.component,
        icon: row.icon,
        permission: row.permission,
        sort: Number(row.sort),
        visible: Boolean(row.visible),
      })
    } else if (row.kind === 'depts') {
      if (row.code) for (const id of row.code.split(',')) deptIds.add(Number(id))
    } else if (row.code) {
      for (const button of row.code.split('\u001f')) {
        const separator = button.indexOf(':')
        const id = Number(button.slice(0, separator))
        menuIds.add(id)
        const code = button.slice(separator + 1)
        if (code) {
          codes.push(code)
          codeOf.set(id, code)
        }
      }
    }
  }

  menus.sort(bySortThenId)
  roles.sort(bySortThenId)
  const isSuperAdmin = roles.some(
    (role) => role.code === SUPER_ADMIN_ROLE && role.status === 'enabled'
  )
  const enabled = roles.filter((role) => role.status === 'enabled')
  const scope: DataScope = {
    all: isSuperAdmin || enabled.some((role) => role.dataScope === 'all'),
    self: enabled.some((role) => role.dataScope === 'self'),
    deptIds,
  }
  const snapshot = new AccessSnapshot(
    roles.map(({ id, code, name, status }) => ({ id, code, name, status })),
    isSuperAdmin,
    menus,
    menuIds,
    codes,
    codeOf,
    scope
  )
  return { version, snapshot }
}
