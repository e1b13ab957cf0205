import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import Menu from '#models/menu'
import Article from '#models/article'
import Dept from '#models/dept'
import DictType from '#models/dict_type'
import DictItem from '#models/dict_item'
import Param from '#models/param'
import Notice from '#models/notice'
import type User from '#models/user'
import type Role from '#models/role'
import { ALL_PERMISSION_CODES, PERMISSIONS, isPermissionCode } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { createSession } from '#auth/sessions'
import { ADMIN_PREFIX, declaresPermission } from '#start/routes/admin'
import { permissionDeclarations, permissionOf } from '#middleware/permission_middleware'
import { RoleFactory } from '#database/factories/role_factory'
import { MenuFactory } from '#database/factories/menu_factory'
import { UserFactory, userWithPermissions } from '#database/factories/user_factory'
import { apiTokenFor } from '#tests/helpers/api_tokens'

/** `assignable`: the seeded assign-menus button, which the holder of that permission holds. */
type Fixtures = {
  target: User
  role: Role
  leaf: Menu
  article: Article
  assignable: Menu
  session: string
  apiToken: number
  dept: Dept
  dict: DictType
  dictItem: DictItem
  param: Param
  notice: Notice
}
type Row = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  pattern: string
  code: string
  status: number
  body?: (f: Fixtures) => Record<string | symbol, unknown>
  /** Menu ids the caller's role must hold for the write to pass the grant rule. */
  holds?: (f: Fixtures) => number[]
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

/** A multipart upload instead of a JSON body (the user import). */
const UPLOAD = Symbol('upload')
const unique = () => Math.random().toString(36).slice(2, 10)

/**
 * Every admin route with the permission it must declare and a request that succeeds with it.
 * The router walk below fails when a registered admin route is missing from this table.
 */
type Cells = [Row['method'], string, string, number, Row['body']?, Row['holds']?]
const CELLS: Cells[] = [
  ['GET', '/users', user.list, 200],
  ['GET', '/users/export?format=csv', user.export, 200],
  ['GET', '/users/import/template', user.import, 200],
  [
    'POST',
    '/users/import?dryRun=false',
    user.import,
    200,
    () => ({ [UPLOAD]: `account,nickname\r\nimp_${unique()},Imported\r\n` }),
  ],
  ['GET', '/users/:target', user.list, 200],
  [
    'POST',
    '/users',
    user.create,
    201,
    () => ({ account: `new_${unique()}`, password: 'A-long-enough-passphrase-1' }),
  ],
  ['PUT', '/users/:target', user.update, 200, () => ({ nickname: 'Renamed' })],
  ['DELETE', '/users/:target', user.delete, 204],
  ['PUT', '/users/:target/roles', user.assignRoles, 200, (f) => ({ roleIds: [f.role.id] })],
  [
    'POST',
    '/users/:target/password-reset',
    user.resetPassword,
    200,
    () => ({ password: 'Brand-new-passphrase-2' }),
  ],
  ['POST', '/users/:target/unlock', user.unlock, 200],
  ['DELETE', '/users/:target/2fa', user.resetTwoFactor, 204],
  ['GET', '/roles', role.list, 200],
  ['GET', '/roles/:role', role.list, 200],
  ['POST', '/roles', role.create, 201, () => ({ code: `r_${unique()}`, name: 'Editors' })],
  ['PUT', '/roles/:role', role.update, 200, () => ({ name: 'Renamed role' })],
  ['DELETE', '/roles/:role', role.delete, 204],
  // A non-super admin may only grant what they hold (app/policies/role_policy.ts).
  ['PUT', '/roles/:role/menus', role.assignMenus, 200, (f) => ({ menuIds: [f.assignable.id] })],
  ['GET', '/menus/tree', menu.list, 200],
  ['GET', '/menus', menu.list, 200],
  ['GET', '/menus/:leaf', menu.list, 200],
  [
    'POST',
    '/menus',
    menu.create,
    201,
    () => ({ type: 'directory', name: 'Reports', path: `/reports-${unique()}` }),
  ],
  [
    'PUT',
    '/menus/:leaf',
    menu.update,
    200,
    () => ({ name: 'Renamed page' }),
    (f) => [f.leaf.parentId!, f.leaf.id],
  ],
  ['DELETE', '/menus/:leaf', menu.delete, 204, undefined, (f) => [f.leaf.parentId!, f.leaf.id]],
  ['GET', '/depts/tree', dept.list, 200],
  ['GET', '/depts', dept.list, 200],
  ['GET', '/depts/:dept', dept.list, 200],
  ['POST', '/depts', dept.create, 201, (f) => ({ name: 'Sales', parentId: f.dept.parentId })],
  ['PUT', '/depts/:dept', dept.update, 200, () => ({ name: 'Renamed department' })],
  ['DELETE', '/depts/:dept', dept.delete, 204],
  ['GET', '/dicts', dict.list, 200],
  ['GET', '/dicts/:dict', dict.list, 200],
  ['POST', '/dicts', dict.create, 201, () => ({ code: `d_${unique()}`, name: 'Colours' })],
  ['PUT', '/dicts/:dict', dict.update, 200, () => ({ name: 'Renamed' })],
  ['DELETE', '/dicts/:dict', dict.delete, 204],
  ['GET', '/dicts/:dictCode/items', dict.list, 200],
  ['POST', '/dicts/:dictCode/items', dict.create, 201, () => ({ label: 'Red', value: 'red' })],
  ['PUT', '/dicts/:dictCode/items/:dictItem', dict.update, 200, () => ({ label: 'Blue' })],
  ['DELETE', '/dicts/:dictCode/items/:dictItem', dict.delete, 204],
  ['GET', '/params', param.list, 200],
  ['GET', '/params/:param', param.list, 200],
  [
    'POST',
    '/params',
    param.create,
    201,
    () => ({ key: `p.${unique()}`, value: '3', type: 'number' }),
  ],
  ['PUT', '/params/:param', param.update, 200, () => ({ value: '4' })],
  ['DELETE', '/params/:param', param.delete, 204],
  ['GET', '/notices', notice.list, 200],
  ['GET', '/notices/:notice', notice.list, 200],
  ['POST', '/notices', notice.create, 201, () => ({ title: 'Maintenance', body: 'Tonight' })],
  ['PUT', '/notices/:notice', notice.update, 200, () => ({ status: 'published' })],
  ['DELETE', '/notices/:notice', notice.delete, 204],
  ['GET', '/articles', article.list, 200],
  ['GET', '/articles/:article', article.list, 200],
  [
    'POST',
    '/articles',
    article.create,
    201,
    () => ({ title: 'Release notes', content: 'Body', category: 'release' }),
  ],
  ['PUT', '/articles/:article', article.update, 200, () => ({ title: 'Edited' })],
  ['DELETE', '/articles/:article', article.delete, 204],
  ['POST', '/articles/:article/publish', article.publish, 200],
  ['POST', '/articles/:article/unpublish', article.publish, 200],
  ['GET', '/sessions', session.list, 200],
  ['DELETE', '/sessions/:session', session.forceLogout, 204],
  ['GET', '/tokens', token.list, 200],
  ['DELETE', '/tokens/:token', token.delete, 204],
  ['GET', '/login-logs', loginLog.list, 200],
  ['GET', '/login-logs/export?format=csv', loginLog.export, 200],
  ['GET', '/audit-logs', auditLog.list, 200],
  ['GET', '/audit-logs/export?format=csv', auditLog.export, 200],
  ['GET', '/access/users/:target', access.list, 200],
  ['GET', '/access/codes/:permCode', access.list, 200],
  ['GET', '/access/changes?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z', access.list, 200],
  ['GET', '/access/export?format=csv', access.list, 200],
]
const ROUTES: Row[] = CELLS.map(([method, pattern, code, status, body, holds]) => {
  return { method, pattern, code, status, body, holds }
})

/** The registered pattern of a table row (`:target`, `:role`, ... are all `:id` in the router). */
const routePattern = (row: Row) =>
  `${ADMIN_PREFIX}${row.pattern
    .replace(':dictCode', ':code')
    .replace(':permCode', ':code')
    .replace(/:[a-zA-Z]+/g, (name) => (name === ':code' ? name : ':id'))
    .replace(/\?.*$/, '')}`

async function fixtures(): Promise<Fixtures> {
  const target = await UserFactory.create()
  const roleRow = await RoleFactory.create()
  const directory = await MenuFactory.create()
  const leaf = await MenuFactory.merge({ parentId: directory.id }).apply('page').create()
  const articleRow = await Article.create({
    slug: `fixture-${unique()}`,
    title: 'Fixture',
    summary: '',
    content: 'Fixture body',
    category: 'news',
    status: 'draft',
  })
  const assignable = await Menu.findByOrFail('permission', PERMISSIONS.role.assignMenus)
  const sessionId = await createSession(target.id, { ip: '127.0.0.1' })
  const { row: apiToken } = await apiTokenFor(target, [])
  const root = await Dept.root()
  const deptRow = await Dept.create({
    parentId: root.id,
    name: 'Fixture',
    sort: 0,
    status: 'enabled',
  })
  const dictRow = await DictType.create({ code: `t_${unique()}`, name: 'Sizes', status: 'enabled' })
  const dictItem = await DictItem.create({
    typeCode: dictRow.code,
    label: 'Small',
    value: 's',
    sort: 1,
    status: 'enabled',
  })
  const paramRow = await Param.create({
    key: `fixture.${unique()}`,
    value: 'x',
    type: 'string',
    isSystem: false,
    isPublic: false,
  })
  const noticeRow = await Notice.create({
    title: 'Fixture',
    body: 'Body',
    level: 'info',
    status: 'draft',
  })
  return {
    dict: dictRow,
    dictItem,
    param: paramRow,
    notice: noticeRow,
    dept: deptRow,
    target,
    role: roleRow,
    leaf,
    article: articleRow,
    assignable,
    session: sessionId,
    apiToken: apiToken.id,
  }
}

function send(client: ApiClient, row: Row, f: Fixtures) {
  const url = `${ADMIN_PREFIX}${row.pattern}`
    .replace(':target', String(f.target.id))
    .replace(':role', String(f.role.id))
    .replace(':leaf', String(f.leaf.id))
    .replace(':article', String(f.article.id))
    .replace(':session', f.session)
    .replace(':token', String(f.apiToken))
    .replace(':dictCode', f.dict.code)
    .replace(':permCode', user.list)
    .replace(':dictItem', String(f.dictItem.id))
    .replace(':dict', String(f.dict.id))
    .replace(':param', String(f.param.id))
    .replace(':notice', String(f.notice.id))
    .replace(':dept', String(f.dept.id))
  const request = client.request(url, row.method)
  const body = row.body?.(f)
  if (body && UPLOAD in body) {
    return request.file('file', Buffer.from(body[UPLOAD] as string), { filename: 'users.csv' })
  }
  return body ? request.json(body) : request
}

type StoredRoute = ReturnType<typeof adminRoutes>[number]

/**
 * The router walk: for each route, what is wrong with its permission declaration (exactly one
 * `can` middleware, that is Bouncer's `hasPermission`, with a catalogued and seeded code).
 */
async function walkProblems(routes: StoredRoute[]) {
  const seeded = new Set(
    (await Menu.query().where('type', 'button').whereNotNull('permission')).map(
      (node) => node.permission
    )
  )
  const problems: string[] = []
  for (const route of routes) {
    const where = `${route.methods.join('|')} ${route.pattern}`
    const declarations = permissionDeclarations(route)
    if (declarations.length !== 1) {
      problems.push(`${where} must declare exactly one permission`)
      continue
    }
    const code = declarations[0]
    if (typeof code !== 'string' || !isPermissionCode(code)) {
      problems.push(`${where}: ${String(code)} is not in the catalogue`)
    } else if (!seeded.has(code)) {
      problems.push(`${where}: ${code} has no seeded button`)
    }
  }
  return problems
}

/** Stored routes of the running application under /api/admin (HEAD included). */
function adminRoutes() {
  return Object.values(router.toJSON())
    .flat()
    .filter((route) => route.pattern.startsWith(ADMIN_PREFIX))
}

test.group('Admin routes: every route declares one permission (router walk)', (group) => {
  isolate(group)

  test('every /api/admin route has exactly one `can` declaration with a catalogued, seeded code', async ({
    assert,
  }) => {
    const routes = adminRoutes()
    assert.lengthOf(routes, ROUTES.length)
    assert.deepEqual(await walkProblems(routes), [])
    for (const route of routes) assert.match(route.name ?? '', /^admin\./, route.pattern)
  })

  test('the walk fails a route whose Bouncer check is removed, or whose code is unknown', async ({
    assert,
  }) => {
    const [route] = adminRoutes()
    // The declaration is the middleware entry that carries the route's code.
    const code = permissionOf(route)
    assert.isString(code)
    const isDeclaration = (entry: any) => entry?.args === code
    const without = {
      ...route,
      middleware: {
        all: () => new Set([...route.middleware.all()].filter((e) => !isDeclaration(e))),
      },
    } as unknown as StoredRoute
    const unknownCode = {
      ...route,
      middleware: {
        all: () =>
          new Set(
            [...route.middleware.all()].map((e: any) =>
              isDeclaration(e) ? { ...e, args: 'system:nothing:here' } : e
            )
          ),
      },
    } as unknown as StoredRoute
    const problems = await walkProblems([without, unknownCode])
    assert.lengthOf(problems, 2)
    assert.include(problems[0], 'must declare exactly one permission')
    assert.include(problems[1], 'not in the catalogue')
    assert.isFalse(declaresPermission(without))
  })

  test('the table of this file covers every registered admin route, with the declared code', async ({
    assert,
  }) => {
    const declared = new Map<string, unknown>()
    for (const route of adminRoutes()) {
      const code = permissionOf(route)
      for (const method of route.methods) {
        if (method !== 'HEAD') declared.set(`${method} ${route.pattern}`, code)
      }
    }
    const table = new Map(ROUTES.map((row) => [`${row.method} ${routePattern(row)}`, row.code]))
    assert.sameMembers([...declared.keys()], [...table.keys()])
    for (const [key, code] of table) assert.equal(declared.get(key), code, key)
  })

  test('every catalogued permission code is used by at least one admin route', async ({
    assert,
  }) => {
    const used = new Set(ROUTES.map((row) => row.code))
    assert.sameMembers([...used], [...ALL_PERMISSION_CODES])
  })

  test('deny by default at runtime: a route without a declaration is recognised as such', async ({
    assert,
  }) => {
    const health = Object.values(router.toJSON())
      .flat()
      .find((route) => route.pattern === '/api/health')
    assert.isDefined(health)
    assert.isFalse(declaresPermission(health!))
    for (const route of adminRoutes()) assert.isTrue(declaresPermission(route), route.pattern)
  })
})

test.group(
  'Admin routes: 401 without a token, 403 without the permission, success with it',
  (group) => {
    isolate(group)

    test('{method} {pattern} without a token -> 401')
      .with(ROUTES)
      .run(async ({ client, assert }, row) => {
        const f = await fixtures()
        const response = await send(client, row, f)
        response.assertStatus(401)
        assert.equal(response.body().errors[0].code, 'E_UNAUTHORIZED')
      })

    test('{method} {pattern} with every permission but its own -> 403')
      .with(ROUTES)
      .run(async ({ client, assert }, row) => {
        const f = await fixtures()
        const { user: caller } = await userWithPermissions(
          ALL_PERMISSION_CODES.filter((code) => code !== row.code)
        )
        const response = await send(client, row, f).loginAs(caller)
        response.assertStatus(403)
        assert.deepEqual(response.body(), {
          errors: [
            { code: 'E_FORBIDDEN', message: 'You do not have permission to perform this action' },
          ],
        })
        // A refused write leaves one refusal row; a refused read, none.
        const rows = await db.from('audit_logs')
        assert.lengthOf(rows, row.method === 'GET' ? 0 : 1)
        if (row.method !== 'GET') {
          assert.include(rows[0], {
            actor_id: caller.id,
            permission: row.code,
            outcome: 'refused',
            reason: 'You do not have permission to perform this action',
          })
        }
      })

    test('{method} {pattern} with only its own permission -> success')
      .with(ROUTES)
      .run(async ({ client, assert }, row) => {
        const f = await fixtures()
        const { user: caller, role: callerRole } = await userWithPermissions([row.code])
        if (row.holds) await callerRole.related('menus').attach(row.holds(f))
        const response = await send(client, row, f).loginAs(caller)
        response.assertStatus(row.status)
        // An export answers CSV (tests/functional/admin_lists.spec.ts), every other read JSON.
        const isExport = row.pattern.includes('/export?')
        const isTemplate = row.pattern.endsWith('/template')
        if (isExport) assert.match(response.text(), /^\uFEFFid,/)
        else if (isTemplate) assert.match(response.text(), /^\uFEFFaccount,/)
        else if (row.status !== 204) assert.property(response.body(), 'data')
        // Every write and every export: exactly one audit row, with the code the route declares;
        // another read: none.
        const audited = row.method !== 'GET' || isExport
        const rows = await db.from('audit_logs')
        assert.lengthOf(rows, audited ? 1 : 0)
        if (audited) {
          assert.include(rows[0], {
            actor_id: caller.id,
            actor: caller.account,
            permission: row.code,
            outcome: 'succeeded',
            ip: '127.0.0.1',
          })
          assert.isNotNull(rows[0].request_id)
          if (!isExport) assert.isNotNull(rows[0].target_id)
        }
      })
  }
)
