import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import Menu from '#models/menu'
import Article from '#models/article'
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

/** `assignable`: the seeded assign-menus button, which the holder of that permission holds. */
type Fixtures = {
  target: User
  role: Role
  leaf: Menu
  article: Article
  assignable: Menu
  session: string
}
type Row = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  pattern: string
  code: string
  status: number
  body?: (f: Fixtures) => Record<string, unknown>
  /** Menu ids the caller's role must hold for the write to pass the grant rule. */
  holds?: (f: Fixtures) => number[]
}

const { user, role, menu, article, session, loginLog, auditLog } = PERMISSIONS
const unique = () => Math.random().toString(36).slice(2, 10)

/**
 * Every admin route with the permission it must declare and a request that succeeds with it.
 * The router walk below fails when a registered admin route is missing from this table.
 */
const ROUTES: Row[] = [
  { method: 'GET', pattern: '/users', code: user.list, status: 200 },
  { method: 'GET', pattern: '/users/:target', code: user.list, status: 200 },
  {
    method: 'POST',
    pattern: '/users',
    code: user.create,
    status: 201,
    body: () => ({ account: `new_${unique()}`, password: 'A-long-enough-passphrase-1' }),
  },
  {
    method: 'PUT',
    pattern: '/users/:target',
    code: user.update,
    status: 200,
    body: () => ({ nickname: 'Renamed' }),
  },
  { method: 'DELETE', pattern: '/users/:target', code: user.delete, status: 204 },
  {
    method: 'PUT',
    pattern: '/users/:target/roles',
    code: user.assignRoles,
    status: 200,
    body: (f) => ({ roleIds: [f.role.id] }),
  },
  {
    method: 'POST',
    pattern: '/users/:target/password-reset',
    code: user.resetPassword,
    status: 200,
    body: () => ({ password: 'Brand-new-passphrase-2' }),
  },
  { method: 'POST', pattern: '/users/:target/unlock', code: user.unlock, status: 200 },
  { method: 'DELETE', pattern: '/users/:target/2fa', code: user.resetTwoFactor, status: 204 },
  { method: 'GET', pattern: '/roles', code: role.list, status: 200 },
  { method: 'GET', pattern: '/roles/:role', code: role.list, status: 200 },
  {
    method: 'POST',
    pattern: '/roles',
    code: role.create,
    status: 201,
    body: () => ({ code: `r_${unique()}`, name: 'Editors' }),
  },
  {
    method: 'PUT',
    pattern: '/roles/:role',
    code: role.update,
    status: 200,
    body: () => ({ name: 'Renamed role' }),
  },
  { method: 'DELETE', pattern: '/roles/:role', code: role.delete, status: 204 },
  {
    method: 'PUT',
    pattern: '/roles/:role/menus',
    code: role.assignMenus,
    status: 200,
    // A non-super admin may only grant what they hold (app/services/admin/grants.ts).
    body: (f) => ({ menuIds: [f.assignable.id] }),
  },
  { method: 'GET', pattern: '/menus/tree', code: menu.list, status: 200 },
  { method: 'GET', pattern: '/menus', code: menu.list, status: 200 },
  { method: 'GET', pattern: '/menus/:leaf', code: menu.list, status: 200 },
  {
    method: 'POST',
    pattern: '/menus',
    code: menu.create,
    status: 201,
    body: () => ({ type: 'directory', name: 'Reports', path: `/reports-${unique()}` }),
  },
  {
    method: 'PUT',
    pattern: '/menus/:leaf',
    code: menu.update,
    status: 200,
    body: () => ({ name: 'Renamed page' }),
    holds: (f) => [f.leaf.parentId!, f.leaf.id],
  },
  {
    method: 'DELETE',
    pattern: '/menus/:leaf',
    code: menu.delete,
    status: 204,
    holds: (f) => [f.leaf.parentId!, f.leaf.id],
  },
  { method: 'GET', pattern: '/articles', code: article.list, status: 200 },
  { method: 'GET', pattern: '/articles/:article', code: article.list, status: 200 },
  {
    method: 'POST',
    pattern: '/articles',
    code: article.create,
    status: 201,
    body: () => ({ title: 'Release notes', content: 'Body', category: 'release' }),
  },
  {
    method: 'PUT',
    pattern: '/articles/:article',
    code: article.update,
    status: 200,
    body: () => ({ title: 'Edited' }),
  },
  { method: 'DELETE', pattern: '/articles/:article', code: article.delete, status: 204 },
  { method: 'POST', pattern: '/articles/:article/publish', code: article.publish, status: 200 },
  { method: 'POST', pattern: '/articles/:article/unpublish', code: article.publish, status: 200 },
  { method: 'GET', pattern: '/sessions', code: session.list, status: 200 },
  { method: 'DELETE', pattern: '/sessions/:session', code: session.forceLogout, status: 204 },
  { method: 'GET', pattern: '/login-logs', code: loginLog.list, status: 200 },
  { method: 'GET', pattern: '/audit-logs', code: auditLog.list, status: 200 },
]

/** The registered pattern of a table row (`:target`, `:role`, ... are all `:id` in the router). */
const routePattern = (row: Row) => `${ADMIN_PREFIX}${row.pattern.replace(/:[a-z]+/g, ':id')}`

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
  return { target, role: roleRow, leaf, article: articleRow, assignable, session: sessionId }
}

function send(client: ApiClient, row: Row, f: Fixtures) {
  const url = `${ADMIN_PREFIX}${row.pattern}`
    .replace(':target', String(f.target.id))
    .replace(':role', String(f.role.id))
    .replace(':leaf', String(f.leaf.id))
    .replace(':article', String(f.article.id))
    .replace(':session', f.session)
  const request = client.request(url, row.method)
  return row.body ? request.json(row.body(f)) : request
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
        if (row.status !== 204) assert.property(response.body(), 'data')
        // Every write: exactly one audit row, with the code the route declares; a read: none.
        const rows = await db.from('audit_logs')
        assert.lengthOf(rows, row.method === 'GET' ? 0 : 1)
        if (row.method !== 'GET') {
          assert.include(rows[0], {
            actor_id: caller.id,
            actor: caller.account,
            permission: row.code,
            outcome: 'succeeded',
            ip: '127.0.0.1',
          })
          assert.isNotNull(rows[0].request_id)
          assert.isNotNull(rows[0].target_id)
        }
      })
  }
)
