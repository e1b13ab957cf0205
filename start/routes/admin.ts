/*
| Routes of the admin module (see start/routes.ts): /api/admin/*.
|
| Every route declares exactly one permission code with `.use(middleware.can(code))`, right
| where it is defined; the `can` middleware authenticates the JWT and checks the code against the
| access snapshot. tests/functional/admin_routes.spec.ts walks the router and fails on any admin
| route without one (or with a code outside the catalogue / seeded menus), and the group
| middleware below refuses such a route at runtime too: deny by default.
*/
import router from '@adonisjs/core/services/router'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'
import { permissionOf } from '#middleware/permission_middleware'
import { PERMISSIONS } from '#auth/permissions'
import { forbidden } from '#exceptions/api_exception'
import { SESSION_ID } from '#auth/sessions'

export const ADMIN_PREFIX = '/api/admin'

/** Whether a stored route carries the `can` permission middleware. */
export function declaresPermission(route: HttpContext['route']) {
  return permissionOf(route) !== null
}

/** Safety net: a route added to this group without a permission declaration answers 403. */
async function requirePermissionDeclaration(ctx: HttpContext, next: NextFn) {
  if (!declaresPermission(ctx.route)) {
    ctx.logger.error({ url: ctx.request.url() }, 'admin route without a permission declaration')
    throw forbidden()
  }
  return next()
}

const {
  user,
  role,
  menu,
  dept,
  dict,
  param,
  notice,
  article,
  session,
  token,
  loginLog,
  auditLog,
  access,
} = PERMISSIONS
const {
  Users,
  Roles,
  Menus,
  Depts,
  Dicts,
  Params,
  Notices,
  Articles,
  Sessions,
  ApiTokens,
  LoginLogs,
  AuditLogs,
  Access,
} = controllers.admin

/** Permission codes in paths (app/auth/permissions.ts; an unknown one is a 404). */
const PERMISSION_CODE = { match: /^[a-z][a-z0-9:-]{0,99}$/ }

/** Dictionary codes in paths (app/validators/admin/dict.ts). */
const DICT_CODE = { match: /^[a-z][a-z0-9_]{0,63}$/ }

router
  .group(() => {
    // Users
    router.get('users', [Users, 'index']).use(middleware.can(user.list))
    router.get('users/export', [Users, 'export']).use(middleware.can(user.export))
    router.get('users/import/template', [Users, 'importTemplate']).use(middleware.can(user.import))
    router.post('users/import', [Users, 'import']).use(middleware.can(user.import))
    router.get('users/:id', [Users, 'show']).use(middleware.can(user.list))
    router.post('users', [Users, 'store']).use(middleware.can(user.create))
    router.put('users/:id', [Users, 'update']).use(middleware.can(user.update))
    router.delete('users/:id', [Users, 'destroy']).use(middleware.can(user.delete))
    router.put('users/:id/roles', [Users, 'assignRoles']).use(middleware.can(user.assignRoles))
    router
      .post('users/:id/password-reset', [Users, 'resetPassword'])
      .use(middleware.can(user.resetPassword))
    router.post('users/:id/unlock', [Users, 'unlock']).use(middleware.can(user.unlock))
    router
      .delete('users/:id/2fa', [Users, 'resetTwoFactor'])
      .use(middleware.can(user.resetTwoFactor))

    // Roles
    router.get('roles', [Roles, 'index']).use(middleware.can(role.list))
    router.get('roles/:id', [Roles, 'show']).use(middleware.can(role.list))
    router.post('roles', [Roles, 'store']).use(middleware.can(role.create))
    router.put('roles/:id', [Roles, 'update']).use(middleware.can(role.update))
    router.delete('roles/:id', [Roles, 'destroy']).use(middleware.can(role.delete))
    router.put('roles/:id/menus', [Roles, 'assignMenus']).use(middleware.can(role.assignMenus))

    // Menus (`tree` before `:id`; the id matcher keeps them apart anyway)
    router.get('menus/tree', [Menus, 'tree']).use(middleware.can(menu.list))
    router.get('menus', [Menus, 'index']).use(middleware.can(menu.list))
    router.get('menus/:id', [Menus, 'show']).use(middleware.can(menu.list))
    router.post('menus', [Menus, 'store']).use(middleware.can(menu.create))
    router.put('menus/:id', [Menus, 'update']).use(middleware.can(menu.update))
    router.delete('menus/:id', [Menus, 'destroy']).use(middleware.can(menu.delete))

    // Departments (`tree` before `:id`; the id matcher keeps them apart anyway)
    router.get('depts/tree', [Depts, 'tree']).use(middleware.can(dept.list))
    router.get('depts', [Depts, 'index']).use(middleware.can(dept.list))
    router.get('depts/:id', [Depts, 'show']).use(middleware.can(dept.list))
    router.post('depts', [Depts, 'store']).use(middleware.can(dept.create))
    router.put('depts/:id', [Depts, 'update']).use(middleware.can(dept.update))
    router.delete('depts/:id', [Depts, 'destroy']).use(middleware.can(dept.delete))

    // Dictionaries and their items
    router.get('dicts', [Dicts, 'index']).use(middleware.can(dict.list))
    router.get('dicts/:id', [Dicts, 'show']).use(middleware.can(dict.list))
    router.post('dicts', [Dicts, 'store']).use(middleware.can(dict.create))
    router.put('dicts/:id', [Dicts, 'update']).use(middleware.can(dict.update))
    router.delete('dicts/:id', [Dicts, 'destroy']).use(middleware.can(dict.delete))
    router
      .group(() => {
        router.get('dicts/:code/items', [Dicts, 'items']).use(middleware.can(dict.list))
        router.post('dicts/:code/items', [Dicts, 'storeItem']).use(middleware.can(dict.create))
        router.put('dicts/:code/items/:id', [Dicts, 'updateItem']).use(middleware.can(dict.update))
        router
          .delete('dicts/:code/items/:id', [Dicts, 'destroyItem'])
          .use(middleware.can(dict.delete))
      })
      .where('code', DICT_CODE)

    // Parameters
    router.get('params', [Params, 'index']).use(middleware.can(param.list))
    router.get('params/:id', [Params, 'show']).use(middleware.can(param.list))
    router.post('params', [Params, 'store']).use(middleware.can(param.create))
    router.put('params/:id', [Params, 'update']).use(middleware.can(param.update))
    router.delete('params/:id', [Params, 'destroy']).use(middleware.can(param.delete))

    // Notices
    router.get('notices', [Notices, 'index']).use(middleware.can(notice.list))
    router.get('notices/:id', [Notices, 'show']).use(middleware.can(notice.list))
    router.post('notices', [Notices, 'store']).use(middleware.can(notice.create))
    router.put('notices/:id', [Notices, 'update']).use(middleware.can(notice.update))
    router.delete('notices/:id', [Notices, 'destroy']).use(middleware.can(notice.delete))

    // Articles (admin side)
    router.get('articles', [Articles, 'index']).use(middleware.can(article.list))
    router.get('articles/:id', [Articles, 'show']).use(middleware.can(article.list))
    router.post('articles', [Articles, 'store']).use(middleware.can(article.create))
    router.put('articles/:id', [Articles, 'update']).use(middleware.can(article.update))
    router.delete('articles/:id', [Articles, 'destroy']).use(middleware.can(article.delete))
    router.post('articles/:id/publish', [Articles, 'publish']).use(middleware.can(article.publish))
    router
      .post('articles/:id/unpublish', [Articles, 'unpublish'])
      .use(middleware.can(article.publish))

    // Monitor
    router.get('sessions', [Sessions, 'index']).use(middleware.can(session.list))
    router
      .delete('sessions/:id', [Sessions, 'destroy'])
      .where('id', SESSION_ID)
      .use(middleware.can(session.forceLogout))
    router.get('tokens', [ApiTokens, 'index']).use(middleware.can(token.list))
    router.delete('tokens/:id', [ApiTokens, 'destroy']).use(middleware.can(token.delete))
    router.get('login-logs', [LoginLogs, 'index']).use(middleware.can(loginLog.list))
    router.get('login-logs/export', [LoginLogs, 'export']).use(middleware.can(loginLog.export))
    router.get('audit-logs', [AuditLogs, 'index']).use(middleware.can(auditLog.list))
    router.get('audit-logs/export', [AuditLogs, 'export']).use(middleware.can(auditLog.export))
    router.get('access/users/:id', [Access, 'user']).use(middleware.can(access.list))
    router
      .get('access/codes/:code', [Access, 'code'])
      .where('code', PERMISSION_CODE)
      .use(middleware.can(access.list))
    router.get('access/changes', [Access, 'changes']).use(middleware.can(access.list))
    router.get('access/export', [Access, 'export']).use(middleware.can(access.list))
  })
  .prefix(ADMIN_PREFIX)
  .as('admin')
  .use(requirePermissionDeclaration)
