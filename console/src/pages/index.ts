import type { ComponentType } from 'react'
import type { Resource } from '../access'
import { ArticleCreate, ArticleEdit, ArticleList } from './articles'
import { MenuCreate, MenuEdit, MenuTree } from './menus'
import { DeptCreate, DeptEdit, DeptTree } from './depts'
import { DictCreate, DictEdit, DictList } from './dicts'
import { NoticeCreate, NoticeEdit, NoticeList } from './notices'
import { ParamCreate, ParamEdit, ParamList } from './params'
import { AuditLogList, LoginLogList, SessionList } from './monitor'
import { ApiTokenList } from './tokens'
import { AccessReview } from './access'
import { RoleCreate, RoleEdit, RoleList } from './roles'
import { UserCreate, UserEdit, UserList } from './users'

/**
 * The pages this console knows, keyed by the menu node's `component` (what the seed stores).
 * `name` is the react-admin resource, i.e. the route (/users) and /api/admin/<name>. A page is
 * registered only when the account's /me tree holds its menu node; what it needs for each action
 * is access.ts's.
 */
export type Page = {
  name: Resource
  list: ComponentType
  create?: ComponentType
  edit?: ComponentType
}

export const PAGES: Record<string, Page> = {
  'system/user/index': {
    name: 'users',
    list: UserList,
    create: UserCreate,
    edit: UserEdit,
  },
  'system/role/index': {
    name: 'roles',
    list: RoleList,
    create: RoleCreate,
    edit: RoleEdit,
  },
  'system/menu/index': {
    name: 'menus',
    list: MenuTree,
    create: MenuCreate,
    edit: MenuEdit,
  },
  'system/dept/index': {
    name: 'depts',
    list: DeptTree,
    create: DeptCreate,
    edit: DeptEdit,
  },
  'system/dict/index': { name: 'dicts', list: DictList, create: DictCreate, edit: DictEdit },
  'system/param/index': { name: 'params', list: ParamList, create: ParamCreate, edit: ParamEdit },
  'system/notice/index': {
    name: 'notices',
    list: NoticeList,
    create: NoticeCreate,
    edit: NoticeEdit,
  },
  'content/article/index': {
    name: 'articles',
    list: ArticleList,
    create: ArticleCreate,
    edit: ArticleEdit,
  },
  'monitor/online/index': { name: 'sessions', list: SessionList },
  'monitor/login-log/index': { name: 'login-logs', list: LoginLogList },
  'monitor/audit-log/index': { name: 'audit-logs', list: AuditLogList },
  'monitor/api-token/index': { name: 'tokens', list: ApiTokenList },
  'monitor/access/index': { name: 'access', list: AccessReview },
}
