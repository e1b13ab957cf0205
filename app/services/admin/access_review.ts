import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import ApiToken from '#models/api_token'
import AuditLog from '#models/audit_log'
import { SUPER_ADMIN_ROLE } from '#models/role'
import { type AccessSnapshot, loadAccessSnapshot } from '#auth/access_snapshot'
import { ALL_PERMISSION_CODES, PERMISSIONS, isPermissionCode } from '#auth/permissions'
import { tokenAccess } from '#auth/api_tokens'
import { notFound, FieldError } from '#exceptions/api_exception'
import { SCOPED, type Viewer, findInScope, scoped } from '#services/admin/data_scope'
import { pageMeta } from '#providers/api_provider'
import { ordered } from '#services/admin/common'
import { accessChangeSort, accessHolderSort } from '#resources/access'
import type {
  AccessChange,
  AccessChangeRef,
  AccessGrant,
  AccessMenuRef,
  AccessRef,
} from '#resources/access'

/*
| ACCESS REVIEW (docs/admin-modules.md, "Access review"): who can do what, and why. Every answer
| about what an account holds starts from its access snapshot (loadAccessSnapshot, the statement
| behind /me and every permission check), so it cannot disagree with what the account is allowed
| to do: this module only adds the explanation (which roles hold the node, its menu path) on top.
*/

/** The longest period `changes` answers (a year and a day: a yearly review with a margin). */
export const MAX_CHANGES_DAYS = 366
/** The period `changes` answers when none is given: the last 30 days. */
const DEFAULT_CHANGES_DAYS = 30

type MenuRow = { id: number; parentId: number | null; name: string }

/** One account's access, explained: the snapshot plus, per code, the roles and paths granting it. */
type Explained = { snapshot: AccessSnapshot; grants: Map<string, AccessGrant[]> }

async function menuRows(): Promise<Map<number, MenuRow>> {
  const rows: { id: number | string; parent_id: number | string | null; name: string }[] = await db
    .from('menus')
    .select('id', 'parent_id', 'name')
  return new Map(
    rows.map((row) => [
      Number(row.id),
      {
        id: Number(row.id),
        parentId: row.parent_id === null ? null : Number(row.parent_id),
        name: row.name,
      },
    ])
  )
}

/** Root directory -> node: every node of an effective chain is effective itself. */
function pathTo(menus: Map<number, MenuRow>, id: number) {
  const path: { id: number; name: string }[] = []
  const seen = new Set<number>()
  for (let node = menus.get(id); node && !seen.has(node.id); node = menus.get(node.parentId!)) {
    seen.add(node.id)
    path.unshift({ id: node.id, name: node.name })
    if (node.parentId === null) break
  }
  return path
}

/**
 * The snapshot of an account with the "why" of each code: for each effective node carrying a
 * code, the enabled roles holding that node (role_menus), and the enabled super-admin role for
 * every code. `menus` is shared by the callers that explain many accounts.
 */
async function explain(
  userId: number,
  deptId: number | null,
  menus?: Map<number, MenuRow>
): Promise<Explained> {
  const { snapshot } = await loadAccessSnapshot(userId, deptId)
  const enabled = snapshot.roles.filter((role) => role.status === 'enabled')
  const superRole = snapshot.isSuperAdmin
    ? enabled.find((role) => role.code === SUPER_ADMIN_ROLE)
    : undefined
  const holders = new Map<number, number[]>()
  if (enabled.length && snapshot.codeOf.size) {
    const rows: { role_id: number | string; menu_id: number | string }[] = await db
      .from('role_menus')
      .select('role_id', 'menu_id')
      .whereIn(
        'role_id',
        enabled.map((role) => role.id)
      )
    for (const row of rows) {
      const menuId = Number(row.menu_id)
      if (!holders.has(menuId)) holders.set(menuId, [])
      holders.get(menuId)!.push(Number(row.role_id))
    }
  }
  const tree = menus ?? (await menuRows())
  const roleRef = (id: number) => {
    const role = enabled.find((r) => r.id === id)!
    return { id: role.id, code: role.code, name: role.name }
  }
  const grants = new Map<string, AccessGrant[]>()
  const add = (code: string, grant: AccessGrant) => {
    if (!grants.has(code)) grants.set(code, [])
    grants.get(code)!.push(grant)
  }
  for (const [menuId, code] of snapshot.codeOf) {
    const path = pathTo(tree, menuId)
    if (superRole) add(code, { role: roleRef(superRole.id), path })
    for (const roleId of holders.get(menuId) ?? []) {
      if (roleId !== superRole?.id) add(code, { role: roleRef(roleId), path })
    }
  }
  // A catalogue code with no enabled node anywhere: the super-admin role grants it all the same.
  if (superRole) {
    for (const code of ALL_PERMISSION_CODES) {
      if (!grants.has(code)) add(code, { role: roleRef(superRole.id), path: [] })
    }
  }
  return { snapshot, grants }
}

/** Role ids of the accounts holding any role, read in one statement. */
async function roleSets(): Promise<Map<number, string>> {
  const rows: { user_id: number | string; role_id: number | string }[] = await db
    .from('user_roles')
    .select('user_id', 'role_id')
  const byUser = new Map<number, number[]>()
  for (const row of rows) {
    const userId = Number(row.user_id)
    if (!byUser.has(userId)) byUser.set(userId, [])
    byUser.get(userId)!.push(Number(row.role_id))
  }
  return new Map([...byUser].map(([userId, ids]) => [userId, roleKey(ids)]))
}

const roleKey = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b).join(',')

/**
 * What each role set grants: an account's codes depend on its roles only (the department changes
 * its data scope, not its codes), so one snapshot per distinct role set answers for every account
 * holding that set. Filled lazily from the snapshot of the first account seen with each set (a
 * role change landing between the two reads is seen by the next review).
 */
class RoleSetCodes {
  #known = new Map<string, Explained>()
  #menus?: Map<number, MenuRow>

  async of(userId: number, key: string | undefined): Promise<Explained | undefined> {
    if (key === undefined) return undefined
    let explained = this.#known.get(key)
    if (!explained) {
      this.#menus ??= await menuRows()
      explained = await explain(userId, null, this.#menus)
      this.#known.set(key, explained)
    }
    return explained
  }
}

type TokenRow = Pick<ApiToken, 'id' | 'userId' | 'name' | 'hint' | 'permissions' | 'expiresAt'>

/** The live tokens of some accounts (the guard's rule: owner enabled, version current, unexpired). */
async function liveTokens(owners: User[]) {
  const live = new Map<number, TokenRow[]>()
  const enabled = owners.filter((owner) => owner.isEnabled)
  if (!enabled.length) return live
  const versions = new Map(enabled.map((owner) => [owner.id, owner.tokenVersion]))
  const tokens = await ApiToken.query()
    .whereIn(
      'user_id',
      enabled.map((owner) => owner.id)
    )
    .where('expires_at', '>', Date.now())
    .orderBy('id')
  for (const token of tokens) {
    if (versions.get(token.userId) !== token.tokenVersion) continue
    if (!live.has(token.userId)) live.set(token.userId, [])
    live.get(token.userId)!.push(token)
  }
  return live
}

/** A token's effective codes: what the guard lets it do (its codes the owner still holds). */
const effectiveCodes = (owner: AccessSnapshot, token: TokenRow) =>
  [...tokenAccess(owner, JSON.stringify(token.permissions)).permissions].sort()

const tokenView = (token: TokenRow) => ({
  id: token.id,
  name: token.name,
  hint: token.hint,
  expiresAt: new Date(Number(token.expiresAt)).toISOString(),
})

export default class AccessReviewService {
  /** GET /api/admin/access/users/:id: every effective code of the account, and why. */
  async user(viewer: Viewer, id: number) {
    const user = await findInScope(User, SCOPED.users, viewer, id)
    const { snapshot, grants } = await explain(user.id, user.deptId)
    const live = await liveTokens([user])
    const tokens = live.get(user.id) ?? []
    return {
      user: { id: user.id, account: user.account, nickname: user.nickname, status: user.status },
      isSuperAdmin: snapshot.isSuperAdmin,
      roles: snapshot.roles.map((role) => ({ ...role })),
      scope: {
        all: snapshot.scope.all,
        self: snapshot.scope.self,
        deptIds: [...snapshot.scope.deptIds].sort((a, b) => a - b),
      },
      codes: [...snapshot.permissions].sort().map((code) => ({
        code,
        grants: grants.get(code) ?? [],
      })),
      tokens: tokens.map((token) => ({
        ...tokenView(token),
        permissions: [...token.permissions],
        effective: effectiveCodes(snapshot, token),
      })),
    }
  }

  /**
   * GET /api/admin/access/codes/:code: the accounts in scope holding the code (a page of them,
   * by id), the roles through which, and their live tokens carrying it.
   */
  async code(
    viewer: Viewer,
    code: string,
    page: { pageNum?: number; pageSize?: number; sort?: string }
  ) {
    if (!isPermissionCode(code)) throw notFound()
    const { pageNum = 1, pageSize = 10, sort } = page
    const sets = await roleSets()
    const codes = new RoleSetCodes()
    // The accounts in scope holding any role (an account without one holds nothing).
    const candidates = scoped(User.query().select('users.id'), SCOPED.users, viewer).whereIn(
      'users.id',
      db.from('user_roles').select('user_id')
    )
    ordered(candidates, sort, accessHolderSort, [{ column: 'id', order: 'asc' }])
    const holding: { id: number; grants: AccessGrant[] }[] = []
    for (const { id } of await candidates.pojo<{ id: number | string }>()) {
      const explained = await codes.of(Number(id), sets.get(Number(id)))
      if (explained?.snapshot.permissions.has(code)) {
        holding.push({ id: Number(id), grants: explained.grants.get(code) ?? [] })
      }
    }
    const slice = holding.slice((pageNum - 1) * pageSize, pageNum * pageSize)
    const users = slice.length
      ? await User.query().whereIn(
          'id',
          slice.map((row) => row.id)
        )
      : []
    const byId = new Map(users.map((user) => [user.id, user]))
    const tokens = await liveTokens(users)
    const rows = []
    for (const { id, grants } of slice) {
      const user = byId.get(id)
      if (!user) continue // deleted meanwhile
      const explained = (await codes.of(id, sets.get(id)))!
      const roles = new Map<number, AccessRef>()
      for (const grant of grants) roles.set(grant.role.id, grant.role)
      rows.push({
        id: user.id,
        account: user.account,
        nickname: user.nickname,
        status: user.status,
        roles: [...roles.values()],
        tokens: (tokens.get(id) ?? [])
          .filter((token) => effectiveCodes(explained.snapshot, token).includes(code))
          .map(tokenView),
      })
    }
    return { rows, meta: pageMeta(holding.length, pageNum, pageSize) }
  }

  /**
   * GET /api/admin/access/changes: grants and revocations in [from, to), newest first, from the
   * audit rows of the writes that change them: a user's roles (create, assign roles), a role's
   * menus, data scope and status (create, update, assign menus) and a role's deletion. User rows
   * are limited to the accounts the viewer's data scope shows.
   */
  async changes(
    viewer: Viewer,
    filters: { from?: Date; to?: Date; pageNum?: number; pageSize?: number; sort?: string }
  ) {
    const { pageNum = 1, pageSize = 10, sort } = filters
    const to = filters.to ?? new Date()
    const from = filters.from ?? new Date(to.getTime() - DEFAULT_CHANGES_DAYS * 86_400_000)
    if (to <= from) throw new FieldError('to', 'accessRangeOrder', 'afterField')
    if (to.getTime() - from.getTime() > MAX_CHANGES_DAYS * 86_400_000) {
      throw new FieldError('to', 'accessRangeTooLong', 'range', { days: MAX_CHANGES_DAYS })
    }
    const query = AuditLog.query().where('outcome', 'succeeded')
    const format = query.client.dialect.dateTimeFormat
    const at = (date: Date) => DateTime.fromJSDate(date).toUTC().toFormat(format)
    query.where('created_at', '>=', at(from)).where('created_at', '<', at(to))
    const mentions = (field: string) => `%"${field}":%`
    query.where((kinds) => {
      kinds.orWhere((users) => {
        users.where('target_type', 'user').whereLike('changes', mentions('roleIds'))
        if (!viewer.access.scope.all) {
          users.whereIn(
            'target_id',
            scoped(User.query(), SCOPED.users, viewer).select(db.raw('CAST(users.id AS TEXT)'))
          )
        }
      })
      kinds.orWhere((roles) =>
        roles.where('target_type', 'role').where((fields) => {
          for (const field of ['menuIds', 'deptIds', 'dataScope', 'status']) {
            fields.orWhereLike('changes', mentions(field))
          }
          fields.orWhere('permission', PERMISSIONS.role.delete)
        })
      )
    })
    ordered(query, sort, accessChangeSort, [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    const page = await query.paginate(pageNum, pageSize)
    return {
      rows: await describeChanges(page.all()),
      meta: pageMeta(page.total, pageNum, pageSize),
    }
  }

  /**
   * GET /api/admin/access/export: one row per account in scope, one column per catalogue code,
   * `x` where held (streamed by sendExport, which bounds and audits it). Codes are read per
   * role set before the first byte.
   */
  async matrix(viewer: Viewer) {
    const query = scoped(User.query(), SCOPED.users, viewer).orderBy('users.id')
    const sets = await roleSets()
    const codes = new RoleSetCodes()
    const held = new Map<string, ReadonlySet<string>>()
    const ids: { id: number | string }[] = await query.clone().select('users.id').pojo()
    for (const { id } of ids) {
      const key = sets.get(Number(id))
      if (key === undefined || held.has(key)) continue
      held.set(key, (await codes.of(Number(id), key))!.snapshot.permissions)
    }
    const catalogue = [...ALL_PERMISSION_CODES].sort()
    const fixed = ['id', 'account', 'nickname', 'status'] as const
    return {
      query,
      columns: {
        names: [...fixed, ...catalogue],
        cells: (object: Record<string, unknown>) => {
          const holds = object.codes as ReadonlySet<string>
          return [
            ...fixed.map((name) => object[name]),
            ...catalogue.map((c) => (holds.has(c) ? 'x' : '')),
          ]
        },
      },
      toObject: (user: User): Record<string, unknown> => ({
        id: user.id,
        account: user.account,
        nickname: user.nickname,
        status: user.status,
        codes: held.get(sets.get(user.id) ?? '') ?? new Set<string>(),
      }),
    }
  }
}

type Changes = Record<string, [unknown, unknown]>

const idList = (value: unknown): number[] =>
  Array.isArray(value) ? value.map(Number).filter(Number.isSafeInteger) : []

/** What each audit row added and removed, with the names of the roles and menus it names. */
async function describeChanges(rows: AuditLog[]): Promise<AccessChange[]> {
  const parsed = rows.map((row) => ({ row, changes: (row.changes ?? {}) as Changes }))
  const roleIds = new Set<number>()
  const menuIds = new Set<number>()
  const userIds = new Set<number>()
  for (const { row, changes } of parsed) {
    const id = Number(row.targetId)
    if (row.targetType === 'user') userIds.add(id)
    else roleIds.add(id)
    for (const value of changes.roleIds ?? []) idList(value).forEach((n) => roleIds.add(n))
    for (const value of changes.menuIds ?? []) idList(value).forEach((n) => menuIds.add(n))
  }
  const clean = (ids: Set<number>) => [...ids].filter((n) => Number.isSafeInteger(n) && n > 0)
  const roles = new Map<number, { code: string; name: string }>()
  for (const role of await db
    .from('roles')
    .select('id', 'code', 'name')
    .whereIn('id', clean(roleIds))) {
    roles.set(Number(role.id), role)
  }
  const menus = new Map<number, { name: string; permission: string | null }>()
  for (const menu of await db
    .from('menus')
    .select('id', 'name', 'permission')
    .whereIn('id', clean(menuIds))) {
    menus.set(Number(menu.id), menu)
  }
  const accounts = new Map<number, string>()
  for (const user of await db.from('users').select('id', 'account').whereIn('id', clean(userIds))) {
    accounts.set(Number(user.id), user.account)
  }
  const roleRef = (id: number): AccessChangeRef => ({
    id,
    code: roles.get(id)?.code ?? null,
    name: roles.get(id)?.name ?? null,
  })
  const menuRef = (id: number): AccessMenuRef => ({
    id,
    name: menus.get(id)?.name ?? null,
    permission: menus.get(id)?.permission ?? null,
  })
  const diff = (pair: [unknown, unknown] | undefined) => {
    const before = new Set(idList(pair?.[0]))
    const after = new Set(idList(pair?.[1]))
    return {
      added: [...after].filter((id) => !before.has(id)),
      removed: [...before].filter((id) => !after.has(id)),
    }
  }
  const codesOf = (ids: number[]) =>
    [...new Set(ids.map((id) => menus.get(id)?.permission).filter((c): c is string => !!c))].sort()

  return parsed.map(({ row, changes }) => {
    const id = Number(row.targetId)
    const isUser = row.targetType === 'user'
    const deleted = !isUser && row.permission === PERMISSIONS.role.delete
    const roleDiff = diff(changes.roleIds)
    const menuDiff = diff(changes.menuIds)
    const rescoped = changes.dataScope || changes.deptIds
    const scopeSide = (side: 0 | 1) => ({
      dataScope: changes.dataScope ? (changes.dataScope[side] as string | null) : null,
      deptIds: changes.deptIds ? idList(changes.deptIds[side]) : null,
    })
    const status = changes.status && !deleted ? changes.status : null
    return {
      id: row.id,
      createdAt: row.createdAt.toUTC().toISO()!,
      actorId: row.actorId,
      actor: row.actor,
      permission: row.permission,
      subject: {
        type: isUser ? 'user' : 'role',
        id: Number.isSafeInteger(id) ? id : null,
        name: isUser
          ? (accounts.get(id) ?? null)
          : (roles.get(id)?.name ?? (deleted ? String(changes.name?.[0] ?? '') || null : null)),
      },
      deleted,
      added: {
        roles: roleDiff.added.map(roleRef),
        menus: menuDiff.added.map(menuRef),
        codes: codesOf(menuDiff.added),
      },
      removed: {
        roles: roleDiff.removed.map(roleRef),
        menus: menuDiff.removed.map(menuRef),
        codes: codesOf(menuDiff.removed),
      },
      scope: rescoped && !deleted ? { before: scopeSide(0), after: scopeSide(1) } : null,
      status: status ? { before: String(status[0] ?? ''), after: String(status[1] ?? '') } : null,
    }
  })
}
