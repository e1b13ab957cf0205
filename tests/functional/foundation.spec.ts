import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import Role from '#models/role'
import Menu from '#models/menu'
import User from '#models/user'
import { ALL_PERMISSION_CODES } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { countQueries } from '#tests/helpers/auth'
import env from '#start/env'
import { READY_REUSE_MS } from '#start/health'
import { freePort, startAppProcess, runAce } from '#tests/helpers/app_process'

test.group('Foundation: health and the error contract', (group) => {
  isolate(group)

  test('GET /api/health (= ready) answers 200 after a real query, a bare status', async ({
    client,
    assert,
  }) => {
    for (const path of ['/api/health', '/api/health/ready']) {
      const response = await client.get(path)
      response.assertStatus(200)
      assert.deepEqual(response.body(), { data: { status: 'ok' } }, path)
      assert.equal(response.header('cache-control'), 'no-store')
    }
  })

  test('a probe reuses a healthy run of the last second; a monitor always gets a fresh report', async ({
    client,
    assert,
  }) => {
    const probe = () => countQueries(() => client.get('/api/health/ready'))
    await new Promise((resolve) => setTimeout(resolve, READY_REUSE_MS))
    assert.isNotEmpty((await probe()).queries)
    const reused = await probe()
    reused.result.assertStatus(200)
    assert.isEmpty(reused.queries)
    const monitor = await countQueries(() =>
      client.get('/api/health/ready').header('x-monitoring-secret', env.get('HEALTH_SECRET')!)
    )
    assert.isNotEmpty(monitor.queries)
    assert.property(monitor.result.body().data, 'report')
  })

  test('GET /api/health/live answers without touching the database', async ({ client, assert }) => {
    const queries: string[] = []
    const listener = (query: { sql: string }) => queries.push(query.sql)
    db.connection().emitter.on('db:query', listener)
    try {
      const response = await client.get('/api/health/live')
      response.assertStatus(200)
      assert.deepEqual(response.body(), { data: { status: 'ok' } })
    } finally {
      db.connection().emitter.off('db:query', listener)
    }
    assert.deepEqual(queries, [])
  })

  test('the readiness report goes only to a caller presenting HEALTH_SECRET', async ({
    client,
    assert,
  }) => {
    const wrong = await client.get('/api/health/ready').header('x-monitoring-secret', 'guess')
    assert.deepEqual(wrong.body(), { data: { status: 'ok' } })

    const monitor = await client
      .get('/api/health/ready')
      .header('x-monitoring-secret', 'test-monitoring-secret')
    monitor.assertStatus(200)
    const { report } = monitor.body().data
    assert.isTrue(report.isHealthy)
    const names = report.checks.map((check: { name: string }) => check.name)
    assert.include(names, 'Shutdown')
    assert.isTrue(names.some((name: string) => name.startsWith('Database health check')))
    assert.isTrue(report.checks.every((check: { status: string }) => check.status === 'ok'))
  })

  test('an unknown route is a 404 in the error contract', async ({ client, assert }) => {
    const response = await client.get('/api/does-not-exist')
    response.assertStatus(404)
    assert.deepEqual(response.body(), {
      errors: [{ code: 'E_NOT_FOUND', message: 'Resource not found' }],
    })
  })

  test('a database failure on readiness is a 5xx in the error contract, without SQL', async ({
    assert,
  }) => {
    // A real app process whose database cannot be reached: PostgreSQL on a port nothing listens on.
    const port = await freePort()
    const instance = await startAppProcess({ DB_CONNECTION: 'pg', PG_PORT: String(port) })
    try {
      const response = await fetch(`${instance.url}/api/health`)
      const body = await response.json()
      assert.equal(response.status, 503)
      assert.deepEqual(body, {
        errors: [{ code: 'E_UNAVAILABLE', message: 'The service is temporarily unavailable' }],
      })
      assert.notInclude(JSON.stringify(body), 'select')
      assert.notInclude(JSON.stringify(body), String(port))
    } finally {
      await instance.stop()
    }
  }).timeout(60_000)

  test('malformed JSON is a 400 in the error contract', async ({ client, assert }) => {
    const response = await client
      .post('/api/health')
      .header('content-type', 'application/json')
      .dumpBody()
    assert.oneOf(response.status(), [400, 404, 405])
    assert.property(response.body(), 'errors')
  })
})

test.group('Foundation: seeding', (group) => {
  isolate(group)

  test('seeding creates the protected super-admin role, the menu tree and one administrator', async ({
    assert,
  }) => {
    const role = await Role.findByOrFail('code', 'super_admin')
    assert.isTrue(role.isSystem)
    assert.equal(role.status, 'enabled')

    const withCodes = await Menu.query().whereNotNull('permission')
    const codes = withCodes.map((menu) => menu.permission)
    assert.sameMembers(codes, [...ALL_PERMISSION_CODES])
    const buttons = await Menu.query().where('type', 'button')
    assert.lengthOf(buttons, ALL_PERMISSION_CODES.length)
    const system = await Menu.query().where('name', 'System').whereNull('parent_id').firstOrFail()
    const pages = await Menu.query().where('parent_id', system.id).orderBy('sort')
    assert.deepEqual(
      pages.map((page) => page.name),
      ['Users', 'Roles', 'Menus', 'Departments']
    )

    const admins = await User.query().preload('roles')
    assert.lengthOf(admins, 1)
    assert.equal(admins[0].account, 'admin')
    assert.deepEqual(
      admins[0].roles.map((r) => r.code),
      ['super_admin']
    )
    assert.match(admins[0].password, /^\$argon2id\$/)
  })

  test('seeding twice duplicates nothing', async ({ assert }) => {
    const count = async (table: string) => {
      const [row] = await db.from(table).count('* as total')
      return Number(row.total)
    }
    const before = {
      users: await count('users'),
      roles: await count('roles'),
      menus: await count('menus'),
      userRoles: await count('user_roles'),
    }
    await testUtils.db().seed()
    await testUtils.db().seed()
    assert.deepEqual(
      {
        users: await count('users'),
        roles: await count('roles'),
        menus: await count('menus'),
        userRoles: await count('user_roles'),
      },
      before
    )
  })
})

test.group('Foundation: configuration', () => {
  test('the app refuses to boot with a JWT_SECRET shorter than 32 bytes', async ({ assert }) => {
    const run = (secret: string) => runAce(['list:routes'], { JWT_SECRET: secret }, 30_000)
    const short = run('too-short-secret')
    assert.notEqual(short.status, 0)
    assert.include(short.output, 'JWT_SECRET')
    assert.include(short.output, 'at least 32 bytes')

    const good = run('a-secret-that-is-long-enough-for-hs256-0123456789')
    assert.equal(good.status, 0, good.output)
  }).timeout(60_000)
})
