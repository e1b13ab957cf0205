import type { Localized } from '#database/seed_locale'

/**
 * The permission catalogue: every code a route may declare. The seeder creates a button node for
 * each one, and a test walks the router to check that every /api/admin route declares a code
 * from this list.
 */
export const PERMISSIONS = {
  user: {
    list: 'system:user:list',
    create: 'system:user:create',
    update: 'system:user:update',
    delete: 'system:user:delete',
    resetPassword: 'system:user:reset-password',
    assignRoles: 'system:user:assign-roles',
    unlock: 'system:user:unlock',
    resetTwoFactor: 'system:user:reset-2fa',
    export: 'system:user:export',
    import: 'system:user:import',
  },
  role: {
    list: 'system:role:list',
    create: 'system:role:create',
    update: 'system:role:update',
    delete: 'system:role:delete',
    assignMenus: 'system:role:assign-menus',
  },
  menu: {
    list: 'system:menu:list',
    create: 'system:menu:create',
    update: 'system:menu:update',
    delete: 'system:menu:delete',
  },
  dept: {
    list: 'system:dept:list',
    create: 'system:dept:create',
    update: 'system:dept:update',
    delete: 'system:dept:delete',
  },
  dict: {
    list: 'system:dict:list',
    create: 'system:dict:create',
    update: 'system:dict:update',
    delete: 'system:dict:delete',
  },
  param: {
    list: 'system:param:list',
    create: 'system:param:create',
    update: 'system:param:update',
    delete: 'system:param:delete',
  },
  notice: {
    list: 'system:notice:list',
    create: 'system:notice:create',
    update: 'system:notice:update',
    delete: 'system:notice:delete',
  },
  article: {
    list: 'content:article:list',
    create: 'content:article:create',
    update: 'content:article:update',
    delete: 'content:article:delete',
    publish: 'content:article:publish',
  },
  session: {
    list: 'monitor:session:list',
    forceLogout: 'monitor:session:delete',
  },
  token: {
    list: 'monitor:token:list',
    delete: 'monitor:token:delete',
  },
  loginLog: {
    list: 'monitor:login-log:list',
    export: 'monitor:login-log:export',
  },
  auditLog: {
    list: 'monitor:audit-log:list',
    export: 'monitor:audit-log:export',
  },
  access: {
    list: 'monitor:access:list',
  },
} as const

type Leaves<T> = T extends string ? T : { [K in keyof T]: Leaves<T[K]> }[keyof T]
export type PermissionCode = Leaves<typeof PERMISSIONS>

export const ALL_PERMISSION_CODES: readonly PermissionCode[] = Object.values(PERMISSIONS).flatMap(
  (group) => Object.values(group)
)

export function isPermissionCode(code: string): code is PermissionCode {
  return (ALL_PERMISSION_CODES as readonly string[]).includes(code)
}

/**
 * Names of the button nodes the seeder creates, in each seed language (SEED_LOCALE). The console
 * translates the English ones to the same Chinese (console/src/i18n/zh.ts, seededMenus).
 */
const ACTION_NAMES: Record<string, Localized> = {
  'list': { 'en': 'Query', 'zh-CN': '查询' },
  'create': { 'en': 'Create', 'zh-CN': '新增' },
  'update': { 'en': 'Edit', 'zh-CN': '修改' },
  'delete': { 'en': 'Delete', 'zh-CN': '删除' },
  'reset-password': { 'en': 'Reset password', 'zh-CN': '重置密码' },
  'assign-roles': { 'en': 'Assign roles', 'zh-CN': '分配角色' },
  'assign-menus': { 'en': 'Assign menus', 'zh-CN': '分配菜单' },
  'unlock': { 'en': 'Unlock', 'zh-CN': '解锁' },
  'reset-2fa': { 'en': 'Reset second factor', 'zh-CN': '重置双重验证' },
  'publish': { 'en': 'Publish', 'zh-CN': '发布' },
  'export': { 'en': 'Export', 'zh-CN': '导出' },
  'import': { 'en': 'Import', 'zh-CN': '导入' },
}

/** Where the verb alone would say too little. */
const CODE_NAMES: Record<string, Localized> = {
  [PERMISSIONS.session.forceLogout]: { 'en': 'Force logout', 'zh-CN': '强制下线' },
  [PERMISSIONS.token.delete]: { 'en': 'Revoke', 'zh-CN': '撤销' },
}

export type MenuSeed = {
  name: Localized
  type: 'directory' | 'menu' | 'button'
  path?: string
  component?: string
  icon?: string
  permission?: string
  sort: number
  children?: MenuSeed[]
}

function buttons(group: Record<string, string>): MenuSeed[] {
  return Object.values(group).map((code, index) => ({
    name: CODE_NAMES[code] ?? ACTION_NAMES[code.split(':').pop()!] ?? { 'en': code, 'zh-CN': code },
    type: 'button' as const,
    permission: code,
    sort: index + 1,
  }))
}

/**
 * The base menu tree: System -> Users, Roles, Menus, Departments, Dictionaries, Parameters, Notices; Content -> Articles; Monitor -> Online
 * administrators, Login log, Audit log, API tokens, Access review; each page with a button node per permission code.
 */
export const BASE_MENU_TREE: MenuSeed[] = [
  {
    name: { 'en': 'System', 'zh-CN': '系统管理' },
    type: 'directory',
    path: '/system',
    icon: 'setting',
    sort: 1,
    children: [
      {
        name: { 'en': 'Users', 'zh-CN': '用户管理' },
        type: 'menu',
        path: 'users',
        component: 'system/user/index',
        icon: 'user',
        sort: 1,
        children: buttons(PERMISSIONS.user),
      },
      {
        name: { 'en': 'Roles', 'zh-CN': '角色管理' },
        type: 'menu',
        path: 'roles',
        component: 'system/role/index',
        icon: 'peoples',
        sort: 2,
        children: buttons(PERMISSIONS.role),
      },
      {
        name: { 'en': 'Menus', 'zh-CN': '菜单管理' },
        type: 'menu',
        path: 'menus',
        component: 'system/menu/index',
        icon: 'tree-table',
        sort: 3,
        children: buttons(PERMISSIONS.menu),
      },
      {
        name: { 'en': 'Departments', 'zh-CN': '部门管理' },
        type: 'menu',
        path: 'depts',
        component: 'system/dept/index',
        icon: 'tree',
        sort: 4,
        children: buttons(PERMISSIONS.dept),
      },
      {
        name: { 'en': 'Dictionaries', 'zh-CN': '字典管理' },
        type: 'menu',
        path: 'dicts',
        component: 'system/dict/index',
        icon: 'dict',
        sort: 5,
        children: buttons(PERMISSIONS.dict),
      },
      {
        name: { 'en': 'Parameters', 'zh-CN': '参数设置' },
        type: 'menu',
        path: 'params',
        component: 'system/param/index',
        icon: 'edit',
        sort: 6,
        children: buttons(PERMISSIONS.param),
      },
      {
        name: { 'en': 'Notices', 'zh-CN': '通知公告' },
        type: 'menu',
        path: 'notices',
        component: 'system/notice/index',
        icon: 'message',
        sort: 7,
        children: buttons(PERMISSIONS.notice),
      },
    ],
  },
  {
    name: { 'en': 'Content', 'zh-CN': '内容管理' },
    type: 'directory',
    path: '/content',
    icon: 'documentation',
    sort: 2,
    children: [
      {
        name: { 'en': 'Articles', 'zh-CN': '文章管理' },
        type: 'menu',
        path: 'articles',
        component: 'content/article/index',
        icon: 'edit',
        sort: 1,
        children: buttons(PERMISSIONS.article),
      },
    ],
  },
  {
    name: { 'en': 'Monitor', 'zh-CN': '系统监控' },
    type: 'directory',
    path: '/monitor',
    icon: 'monitor',
    sort: 3,
    children: [
      {
        name: { 'en': 'Online administrators', 'zh-CN': '在线管理员' },
        type: 'menu',
        path: 'online',
        component: 'monitor/online/index',
        icon: 'online',
        sort: 1,
        children: buttons(PERMISSIONS.session),
      },
      {
        name: { 'en': 'Login log', 'zh-CN': '登录日志' },
        type: 'menu',
        path: 'login-logs',
        component: 'monitor/login-log/index',
        icon: 'logininfor',
        sort: 2,
        children: buttons(PERMISSIONS.loginLog),
      },
      {
        name: { 'en': 'Audit log', 'zh-CN': '操作日志' },
        type: 'menu',
        path: 'audit-logs',
        component: 'monitor/audit-log/index',
        icon: 'log',
        sort: 3,
        children: buttons(PERMISSIONS.auditLog),
      },
      {
        name: { 'en': 'API tokens', 'zh-CN': 'API 令牌' },
        type: 'menu',
        path: 'api-tokens',
        component: 'monitor/api-token/index',
        icon: 'key',
        sort: 4,
        children: buttons(PERMISSIONS.token),
      },
      {
        name: { 'en': 'Access review', 'zh-CN': '权限审查' },
        type: 'menu',
        path: 'access',
        component: 'monitor/access/index',
        icon: 'eye-open',
        sort: 5,
        children: buttons(PERMISSIONS.access),
      },
    ],
  },
]
