import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import Role from '#models/role'
import Menu from '#models/menu'
import User from '#models/user'
import { ALL_PERMISSION_CODES } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { countQueries, userWithPermissions } from '#tests/helpers/auth'
import env from '#start/env'
import { READY_REUSE_MS } from '#start/health'
import { freePort, startAppProcess, runAce } from '#tests/helpers/app_process'
import { type Reply, sendFrom } from '#tests/helpers/http_from'

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

  test('errors stay JSON in the error contract when the client asks for HTML', async ({
    client,
    assert,
  }) => {
    // Each of these errors' own handle() would negotiate an HTML page (AdonisJS's route-not-found,
    // Bouncer's, VineJS's, the limiter's): the handler renders them all itself.
    const { user: clerk } = await userWithPermissions([])
    const accept = 'text/html,application/xhtml+xml,*/*;q=0.8'
    const answered = (response: Awaited<ReturnType<typeof client.get>>) => ({
      status: response.status(),
      headers: response.headers(),
      body: response.body(),
    })
    // The limiter's own 429: keyword searches from an address of their own, past its allowance.
    let throttled: Reply | undefined
    for (let i = 0; i <= env.get('LIMIT_SEARCH_PER_MINUTE', 60) && !throttled; i++) {
      const reply = await sendFrom('127.0.0.61', 'GET', '/api/articles?keyword=negotiated', {
        headers: { accept },
      })
      if (reply.status === 429) throttled = reply
    }
    const answers = [
      [
        answered(await client.get('/api/does-not-exist').header('accept', accept)),
        404,
        'E_NOT_FOUND',
      ],
      [answered(await client.get('/api/auth/me').header('accept', accept)), 401, 'E_UNAUTHORIZED'],
      [
        answered(await client.get('/api/admin/users').loginAs(clerk).header('accept', accept)),
        403,
        'E_FORBIDDEN',
      ],
      [
        answered(await client.post('/api/auth/login').json({}).header('accept', accept)),
        422,
        'E_VALIDATION_ERROR',
      ],
      [throttled, 429, 'E_TOO_MANY_REQUESTS'],
    ] as const
    for (const [reply, status, code] of answers) {
      assert.exists(reply, String(status))
      assert.equal(reply!.status, status)
      assert.match(String(reply!.headers['content-type']), /^application\/json/, String(status))
      assert.equal(reply!.body.errors[0].code, code)
    }
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
  })

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
      ['Users', 'Roles', 'Menus', 'Departments', 'Dictionaries', 'Parameters', 'Notices']
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
  })
})

test.group('Foundation: CORS', () => {
  const preflight = (url: string, origin: string) =>
    fetch(`${url}/api/auth/login`, {
      method: 'OPTIONS',
      headers: {
        'origin': origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    })

  test('an origin listed in CORS_ORIGINS may call the API from a browser; another may not', async ({
    assert,
  }) => {
    const url = `http://${env.get('HOST')}:${env.get('PORT')}`
    const [listed] = (env.get('CORS_ORIGINS') ?? '').split(',')
    const allowed = await preflight(url, listed)
    assert.equal(allowed.status, 204)
    assert.equal(allowed.headers.get('access-control-allow-origin'), listed)
    assert.include(allowed.headers.get('access-control-allow-methods') ?? '', 'POST')
    assert.include(allowed.headers.get('access-control-allow-headers') ?? '', 'authorization')
    const simple = await fetch(`${url}/api/health/live`, { headers: { origin: listed } })
    assert.equal(simple.headers.get('access-control-allow-origin'), listed)
    assert.include(simple.headers.get('access-control-expose-headers') ?? '', 'x-request-id')

    const other = 'https://attacker.example'
    assert.isNull((await preflight(url, other)).headers.get('access-control-allow-origin'))
    const refused = await fetch(`${url}/api/health/live`, { headers: { origin: other } })
    assert.isNull(refused.headers.get('access-control-allow-origin'))
  })

  test('without CORS_ORIGINS no origin gets an Access-Control header (the middleware is not installed)', async ({
    assert,
  }) => {
    const instance = await startAppProcess({ CORS_ORIGINS: '' })
    try {
      const origin = 'http://localhost:5173'
      const answer = await preflight(instance.url, origin)
      assert.equal(answer.status, 404)
      assert.deepEqual(await answer.json(), {
        errors: [{ code: 'E_NOT_FOUND', message: 'Resource not found' }],
      })
      const simple = await fetch(`${instance.url}/api/health/live`, { headers: { origin } })
      assert.equal(simple.status, 200)
      for (const [name] of simple.headers) assert.notMatch(name, /^access-control-/)
    } finally {
      await instance.stop()
    }
  })
})
