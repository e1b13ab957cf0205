import type { ComponentType } from 'react'
import { ArticleCreate, ArticleEdit, ArticleList } from './articles'
import { MenuCreate, MenuEdit, MenuTree } from './menus'
import { DeptCreate, DeptEdit, DeptTree } from './depts'
import { AuditLogList, LoginLogList, SessionList } from './monitor'
import { RoleCreate, RoleEdit, RoleList } from './roles'
import { UserCreate, UserEdit, UserList } from './users'

/**
 * The pages this console knows, keyed by the menu node's `component` (what the seed stores).
 * `name` is the react-admin resource, i.e. the route (/users) and /api/admin/<name>. A page is
 * registered only when the account's /me tree holds its menu node.
 */
export type Page = {
  name: string
  list: ComponentType
  create?: ComponentType
  edit?: ComponentType
  /** The codes the create and edit pages need: without them those routes are not registered. */
  codes?: { create: string; edit: string }
}

export const PAGES: Record<string, Page> = {
  'system/user/index': {
    name: 'users',
    list: UserList,
    create: UserCreate,
    edit: UserEdit,
    codes: { create: 'system:user:create', edit: 'system:user:update' },
  },
  'system/role/index': {
    name: 'roles',
    list: RoleList,
    create: RoleCreate,
    edit: RoleEdit,
    codes: { create: 'system:role:create', edit: 'system:role:update' },
  },
  'system/menu/index': {
    name: 'menus',
    list: MenuTree,
    create: MenuCreate,
    edit: MenuEdit,
    codes: { create: 'system:menu:create', edit: 'system:menu:update' },
  },
  'system/dept/index': {
    name: 'depts',
    list: DeptTree,
    create: DeptCreate,
    edit: DeptEdit,
    codes: { create: 'system:dept:create', edit: 'system:dept:update' },
  },
  'content/article/index': {
    name: 'articles',
    list: ArticleList,
    create: ArticleCreate,
    edit: ArticleEdit,
    codes: { create: 'content:article:create', edit: 'content:article:update' },
  },
  'monitor/online/index': { name: 'sessions', list: SessionList },
  'monitor/login-log/index': { name: 'login-logs', list: LoginLogList },
  'monitor/audit-log/index': { name: 'audit-logs', list: AuditLogList },
}
