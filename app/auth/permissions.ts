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

/** Human-readable names of the button nodes the seeder creates. */
const ACTION_NAMES: Record<string, string> = {
  'list': 'Query',
  'create': 'Create',
  'update': 'Edit',
  'delete': 'Delete',
  'reset-password': 'Reset password',
  'assign-roles': 'Assign roles',
  'assign-menus': 'Assign menus',
  'unlock': 'Unlock',
  'reset-2fa': 'Reset second factor',
  'publish': 'Publish',
  'export': 'Export',
  'import': 'Import',
}

/** Where the verb alone would say too little. */
const CODE_NAMES: Record<string, string> = {
  [PERMISSIONS.session.forceLogout]: 'Force logout',
  [PERMISSIONS.token.delete]: 'Revoke',
}

export type MenuSeed = {
  name: string
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
    name: CODE_NAMES[code] ?? ACTION_NAMES[code.split(':').pop()!] ?? code,
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
    name: 'System',
    type: 'directory',
    path: '/system',
    icon: 'setting',
    sort: 1,
    children: [
      {
        name: 'Users',
        type: 'menu',
        path: 'users',
        component: 'system/user/index',
        icon: 'user',
        sort: 1,
        children: buttons(PERMISSIONS.user),
      },
      {
        name: 'Roles',
        type: 'menu',
        path: 'roles',
        component: 'system/role/index',
        icon: 'peoples',
        sort: 2,
        children: buttons(PERMISSIONS.role),
      },
      {
        name: 'Menus',
        type: 'menu',
        path: 'menus',
        component: 'system/menu/index',
        icon: 'tree-table',
        sort: 3,
        children: buttons(PERMISSIONS.menu),
      },
      {
        name: 'Departments',
        type: 'menu',
        path: 'depts',
        component: 'system/dept/index',
        icon: 'tree',
        sort: 4,
        children: buttons(PERMISSIONS.dept),
      },
      {
        name: 'Dictionaries',
        type: 'menu',
        path: 'dicts',
        component: 'system/dict/index',
        icon: 'dict',
        sort: 5,
        children: buttons(PERMISSIONS.dict),
      },
      {
        name: 'Parameters',
        type: 'menu',
        path: 'params',
        component: 'system/param/index',
        icon: 'edit',
        sort: 6,
        children: buttons(PERMISSIONS.param),
      },
      {
        name: 'Notices',
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
    name: 'Content',
    type: 'directory',
    path: '/content',
    icon: 'documentation',
    sort: 2,
    children: [
      {
        name: 'Articles',
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
    name: 'Monitor',
    type: 'directory',
    path: '/monitor',
    icon: 'monitor',
    sort: 3,
    children: [
      {
        name: 'Online administrators',
        type: 'menu',
        path: 'online',
        component: 'monitor/online/index',
        icon: 'online',
        sort: 1,
        children: buttons(PERMISSIONS.session),
      },
      {
        name: 'Login log',
        type: 'menu',
        path: 'login-logs',
        component: 'monitor/login-log/index',
        icon: 'logininfor',
        sort: 2,
        children: buttons(PERMISSIONS.loginLog),
      },
      {
        name: 'Audit log',
        type: 'menu',
        path: 'audit-logs',
        component: 'monitor/audit-log/index',
        icon: 'log',
        sort: 3,
        children: buttons(PERMISSIONS.auditLog),
      },
      {
        name: 'API tokens',
        type: 'menu',
        path: 'api-tokens',
        component: 'monitor/api-token/index',
        icon: 'key',
        sort: 4,
        children: buttons(PERMISSIONS.token),
      },
      {
        name: 'Access review',
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
