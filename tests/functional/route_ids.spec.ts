import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import type { ApiClient, ApiResponse } from '@japa/api-client'
import { ID_PARAM } from '#core/route_ids'
import { isolate } from '#tests/helpers/database'
import { TEST_PASSWORD, superAdminUser } from '#tests/helpers/auth'

/**
 * Every numeric route parameter goes through the one matcher (app/core/route_ids.ts): an id an
 * int4 column cannot hold is the router's 404, never a handler's query (on PostgreSQL a 500,
 * "value out of range for type integer"). The routes come from the router, not from a list.
 */

type Route = ReturnType<typeof router.toJSON>[string][number]
type Matcher = { match?: RegExp } | undefined

const paramsOf = (route: Route) => [...route.pattern.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1])
const matcherOf = (route: Route, name: string) => (route.matchers as Record<string, Matcher>)[name]
const isId = (route: Route, name: string) => matcherOf(route, name)?.match === ID_PARAM.match

/** The registered routes (read in the tests: the routes load when the test server starts). */
const routesNow = () => Object.values(router.toJSON()).flat()
/** [method, route] of every route with a numeric parameter (HEAD is GET's). */
const numericRoutes = () =>
  routesNow()
    .filter((route) => paramsOf(route).some((name) => isId(route, name)))
    .flatMap((route) =>
      route.methods.filter((method) => method !== 'HEAD').map((method) => [method, route] as const)
    )

/** The route's path with `id` for its numeric parameters and a value its matcher takes elsewhere. */
function pathOf(route: Route, id: string) {
  return route.pattern.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    if (isId(route, name)) return id
    const other = matcherOf(route, name)?.match
    if (other && !other.test('a'))
      throw new Error(`no sample value for :${name} of ${route.pattern}`)
    return 'a'
  })
}

function call(client: ApiClient, method: string, path: string) {
  return client.request(path, method as 'GET').json({})
}

function assertNotFound(assert: any, response: ApiResponse, label: string) {
  assert.equal(response.status(), 404, `${label}: ${response.text()}`)
  assert.equal(response.body().errors?.[0]?.code, 'E_NOT_FOUND', label)
}

test.group('Route ids: numeric parameters outside a positive int4 are 404', (group) => {
  isolate(group)

  test('the router walk finds the id routes, and every `*Id`/`id` parameter is one or not numeric', ({
    assert,
  }) => {
    const routes = routesNow()
    const numeric = numericRoutes()
    assert.isAbove(numeric.length, 30)
    const found = new Set(numeric.map(([method, route]) => `${method} ${route.pattern}`))
    for (const expected of [
      'DELETE /api/auth/passkeys/:id',
      'DELETE /api/auth/tokens/:id',
      'POST /api/auth/notices/:id/read',
      'GET /api/avatars/:userId',
      'GET /api/admin/users/:id',
      'PUT /api/admin/dicts/:code/items/:id',
      'DELETE /api/admin/tokens/:id',
    ]) {
      assert.isTrue(found.has(expected), expected)
    }
    // A parameter named like an id either is the one matcher or takes no plain number at all
    // (session and device ids are random strings).
    for (const route of routes) {
      for (const name of paramsOf(route).filter((param) => /^id$|Id$/.test(param))) {
        if (isId(route, name)) continue
        const match = matcherOf(route, name)?.match
        assert.isDefined(match, `${route.pattern}: :${name} has no matcher`)
        assert.isFalse(match!.test('1'), `${route.pattern}: :${name} takes a number`)
      }
    }
  })

  test('2147483648 and 99999999999: 404 on every one, signed in or not; 2147483647 reaches the handler', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const numeric = numericRoutes()
    assert.isAbove(numeric.length, 30)
    for (const [method, route] of numeric) {
      const label = `${method} ${route.pattern}`
      // The largest id matches the route: the guard answers first without credentials ...
      const anonymous = await call(client, method, pathOf(route, '2147483647'))
      assert.equal(anonymous.status(), 401, `${label}: ${anonymous.text()}`)
      // ... and the handler, signed in, answers without a server error (PostgreSQL holds it).
      const held = await call(client, method, pathOf(route, '2147483647')).loginAs(boss)
      assert.isBelow(held.status(), 500, `${label}: ${held.text()}`)
      // One more is no route at all, whoever asks.
      assertNotFound(assert, await call(client, method, pathOf(route, '2147483648')), label)
      for (const id of ['2147483648', '99999999999', '0']) {
        assertNotFound(assert, await call(client, method, pathOf(route, id)).loginAs(boss), label)
      }
    }
  })

  test('DELETE /api/auth/passkeys/2147483648 is 404 (was a 500 on PostgreSQL)', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const response = await client
      .delete('/api/auth/passkeys/2147483648')
      .json({ password: TEST_PASSWORD })
      .loginAs(boss)
    assertNotFound(assert, response, 'passkey')
  })
})
