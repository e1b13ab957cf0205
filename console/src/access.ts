import type { Me } from './authProvider'

/**
 * What the console offers, declared once: for each react-admin resource, the permission code
 * (from /api/auth/me) each action needs. react-admin 5 asks `authProvider.canAccess` for its own
 * actions (list, create, edit, show, delete: the Create, Edit and Delete buttons, the row click,
 * the routes) and the console's row actions, exports and form parts ask `useCanAccess` below:
 * both read this table and RECORD_RULES, nothing else. The server checks every request anyway;
 * this only keeps the pages honest about what will work.
 *
 * Resources missing here (pages added elsewhere, such as the account pages) are not admin
 * resources: the console does not gate them.
 */
export const ACCESS = {
  'users': {
    list: 'system:user:list',
    show: 'system:user:list',
    create: 'system:user:create',
    edit: 'system:user:update',
    disable: 'system:user:update',
    delete: 'system:user:delete',
    resetPassword: 'system:user:reset-password',
    resetTwoFactor: 'system:user:reset-2fa',
    unlock: 'system:user:unlock',
    assignRoles: 'system:user:assign-roles',
    export: 'system:user:export',
    import: 'system:user:import',
  },
  'roles': {
    list: 'system:role:list',
    show: 'system:role:list',
    create: 'system:role:create',
    edit: 'system:role:update',
    delete: 'system:role:delete',
    assignMenus: 'system:role:assign-menus',
  },
  'menus': {
    list: 'system:menu:list',
    show: 'system:menu:list',
    create: 'system:menu:create',
    edit: 'system:menu:update',
    delete: 'system:menu:delete',
  },
  'depts': {
    list: 'system:dept:list',
    show: 'system:dept:list',
    create: 'system:dept:create',
    edit: 'system:dept:update',
    delete: 'system:dept:delete',
  },
  'dicts': {
    list: 'system:dict:list',
    show: 'system:dict:list',
    create: 'system:dict:create',
    edit: 'system:dict:update',
    delete: 'system:dict:delete',
  },
  'params': {
    list: 'system:param:list',
    show: 'system:param:list',
    create: 'system:param:create',
    edit: 'system:param:update',
    delete: 'system:param:delete',
  },
  'notices': {
    list: 'system:notice:list',
    show: 'system:notice:list',
    create: 'system:notice:create',
    edit: 'system:notice:update',
    delete: 'system:notice:delete',
  },
  'articles': {
    list: 'content:article:list',
    show: 'content:article:list',
    create: 'content:article:create',
    edit: 'content:article:update',
    delete: 'content:article:delete',
    publish: 'content:article:publish',
  },
  'sessions': { list: 'monitor:session:list', delete: 'monitor:session:delete' },
  'tokens': { list: 'monitor:token:list', delete: 'monitor:token:delete' },
  'login-logs': { list: 'monitor:login-log:list', export: 'monitor:login-log:export' },
  'audit-logs': { list: 'monitor:audit-log:list', export: 'monitor:audit-log:export' },
  'access': { list: 'monitor:access:list', export: 'monitor:access:list' },
} as const satisfies Record<string, Record<string, string>>

export type Resource = keyof typeof ACCESS
export type Action<R extends Resource = Resource> = keyof (typeof ACCESS)[R] & string

const SUPER_ADMIN = 'super_admin'

/** The account holds the enabled super-admin role (the server's AccessSnapshot.isSuperAdmin). */
export const isSuperAdmin = (me: Me) =>
  me.roles.some((role) => role.code === SUPER_ADMIN && role.status === 'enabled')

/** The session this tab signed in with: the JWT's `jti` (app/auth/jwt.ts). */
export function currentSessionId(token = localStorage.getItem('rbac.token')): string | null {
  try {
    const payload = token?.split('.')[1]
    if (!payload) return null
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'))
    return (JSON.parse(json) as { jti?: string }).jti ?? null
  } catch {
    return null
  }
}

type Rule = (me: Me, record: any) => boolean

/**
 * What the server refuses whatever the codes (app/policies/*, app/services/admin/*): the console
 * does not offer an action on a row where it cannot succeed.
 * - UserPolicy: only a super admin acts on a super admin's account.
 * - UserService: nobody deletes, disables, resets the password or second factor of, or re-roles
 *   their own account (their own password and second factor have their own pages).
 * - RolePolicy and RoleService: a system role is never deleted nor given menus; only a super
 *   admin edits one.
 * - MenuService: a node with children is not deleted.
 * - ParamService: a system parameter is never deleted.
 * - Force logout of the session this tab runs on would only sign this tab out: not offered.
 */
const untouchable = (me: Me, user: any) =>
  !isSuperAdmin(me) && (user.roles ?? []).some((role: any) => role.code === SUPER_ADMIN)
const notSelf = (me: Me, user: any) => user.id !== me.user.id

const RECORD_RULES: { [R in Resource]?: { [A in Action<R>]?: Rule } } = {
  users: {
    edit: (me, user) => !untouchable(me, user),
    disable: (me, user) => !untouchable(me, user) && notSelf(me, user),
    delete: (me, user) => !untouchable(me, user) && notSelf(me, user),
    resetPassword: (me, user) => !untouchable(me, user) && notSelf(me, user),
    resetTwoFactor: (me, user) => !untouchable(me, user) && notSelf(me, user),
    unlock: (me, user) => !untouchable(me, user),
    assignRoles: (me, user) => !untouchable(me, user) && notSelf(me, user),
  },
  roles: {
    edit: (me, role) => !role.isSystem || isSuperAdmin(me),
    delete: (_me, role) => !role.isSystem,
    assignMenus: (_me, role) => !role.isSystem,
  },
  menus: {
    delete: (_me, menu) => !menu.children?.length,
  },
  params: {
    delete: (_me, param) => !param.isSystem,
  },
  sessions: {
    delete: (_me, session) => session.id !== currentSessionId(),
  },
}

/**
 * Whether `me` may do `action` on `resource` (and on `record` when given). Unknown actions of a
 * known resource are refused; resources outside the table are not gated.
 */
export function canAccess(
  me: Me | null | undefined,
  { resource, action, record }: { resource: string; action: string; record?: any }
): boolean {
  const codes = ACCESS[resource as Resource] as Record<string, string> | undefined
  if (!codes) return true
  const code = codes[action]
  if (!me || !code || !me.permissions.includes(code)) return false
  const rule = (RECORD_RULES[resource as Resource] as Record<string, Rule> | undefined)?.[action]
  return !record || !rule || rule(me, record)
}
