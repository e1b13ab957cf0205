import { test } from '@japa/runner'
import env from '#start/env'
import { PERMISSIONS } from '#auth/permissions'
import { withRealCommits } from '#tests/helpers/database'
import { createAdmin, freshCredential, sessionToken, superAdminUser } from '#tests/helpers/auth'
import { startAppProcess } from '#tests/helpers/app_process'
import { until } from '#tests/helpers/until'

const SECRET = 'metrics-secret-for-tests'
const NOT_FOUND = { errors: [{ code: 'E_NOT_FOUND', message: 'Resource not found' }] }

/** Sets METRICS_SECRET for one test (env.set writes process.env too: restored after). */
function withMetricsSecret(value: string | undefined, cleanup: (fn: () => void) => void) {
  const before = env.get('METRICS_SECRET')
  env.set('METRICS_SECRET', value as any)
  if (value === undefined) delete process.env.METRICS_SECRET
  cleanup(() => {
    env.set('METRICS_SECRET', before as any)
    if (before === undefined) delete process.env.METRICS_SECRET
  })
}

/** The value of one sample line of the exposition text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>) {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`)
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue
    const inner = line.slice(name.length + 1, line.indexOf('}'))
    if (wanted.every((pair) => inner.split(',').includes(pair)))
      return Number(line.split(' ').at(-1))
  }
  return 0
}

test.group('Operations: GET /api/metrics', (group) => {
  // Real commits: the login's limiter store writes outside a test transaction (as in auth_login).
  withRealCommits(group)

  test('404 as an unknown route: secret unset, header missing, header wrong', async ({
    client,
    assert,
    cleanup,
  }) => {
    withMetricsSecret(undefined, cleanup)
    const unknown = await client.get('/api/no-such-route')
    unknown.assertStatus(404)
    assert.deepEqual(unknown.body(), NOT_FOUND)
    const unset = await client.get('/api/metrics').header('x-monitoring-secret', SECRET)
    unset.assertStatus(404)
    assert.deepEqual(unset.body(), NOT_FOUND)

    env.set('METRICS_SECRET', SECRET)
    for (const header of [undefined, 'wrong', SECRET + 'x', '']) {
      const request = client.get('/api/metrics')
      if (header !== undefined) request.header('x-monitoring-secret', header)
      const response = await request
      response.assertStatus(404)
      assert.deepEqual(response.body(), NOT_FOUND)
    }
  })

  test('counters move: requests by route pattern and status, login outcomes, snapshot cache', async ({
    client,
    assert,
    cleanup,
  }) => {
    withMetricsSecret(SECRET, cleanup)
    const scrape = async () => {
      const response = await client.get('/api/metrics').header('x-monitoring-secret', SECRET)
      response.assertStatus(200)
      assert.match(response.header('content-type') ?? '', /^text\/plain/)
      return response.text()
    }
    const slugRoute = { method: 'GET', route: '/api/articles/:slug', status: '404' }
    const admin = await superAdminUser()
    const before = await scrape()

    await client.get('/api/articles/no-such-article-1')
    await client.get('/api/articles/no-such-article-2')
    await client.get('/api/admin/roles').loginAs(admin)
    await client.get('/api/admin/roles').loginAs(admin)
    await client.post('/api/auth/login').json({
      account: 'nobody.here',
      password: 'Wrong-Passw0rd!',
      captchaToken: await freshCredential(),
    })
    const after = await scrape()

    const count = (text: string) => sample(text, 'http_request_duration_seconds_count', slugRoute)
    assert.equal(count(after) - count(before), 2)
    // The label is the route pattern: no raw URL (the slug) anywhere in the exposition.
    assert.notInclude(after, 'no-such-article')
    assert.isAbove(
      sample(after, 'http_request_duration_seconds_bucket', { ...slugRoute, le: '+Inf' }),
      1
    )
    const listed = { method: 'GET', route: '/api/admin/roles', status: '200' }
    assert.equal(
      sample(after, 'http_request_duration_seconds_count', listed) -
        sample(before, 'http_request_duration_seconds_count', listed),
      2
    )
    const outcome = { outcome: 'unknown_account' }
    assert.equal(
      sample(after, 'login_attempts_total', outcome) -
        sample(before, 'login_attempts_total', outcome),
      1
    )
    const hits = (text: string) => sample(text, 'access_snapshot_cache_total', { result: 'hit' })
    assert.isAtLeast(hits(after) - hits(before), 1)
    // Pools of the connections in use, and the default process metrics.
    assert.isAbove(sample(after, 'db_pool_connections', { state: 'max', side: 'write' }), 0)
    assert.include(after, 'process_cpu_user_seconds_total')
    assert.include(after, 'nodejs_eventloop_lag_seconds')
  })
})

test.group('Operations: access log and 403 warnings (own process, info level)', (group) => {
  withRealCommits(group)

  test('one access-log line per request with its request id; 403 warnings once per user and route per minute', async ({
    assert,
  }) => {
    const clerk = await createAdmin('ops.clerk')
    const { token } = await sessionToken(clerk.id, clerk.tokenVersion)
    // TRUSTED_PROXIES=loopback: the test's X-Request-Id headers are kept (app/core/request_id.ts).
    const instance = await startAppProcess({
      LOG_LEVEL: 'info',
      TRUSTED_PROXIES: '127.0.0.1',
      METRICS_SECRET: SECRET,
    })
    const sent: { id: string; path: string; status: number; userId?: number }[] = []
    const send = async (path: string, id: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${instance.url}${path}`, {
        headers: { 'x-request-id': id, ...headers },
      })
      await response.arrayBuffer()
      sent.push({ id, path, status: response.status })
      return response.status
    }
    const bearer = { authorization: `Bearer ${token}` }
    try {
      assert.equal(await send('/api/articles', 'ops-req-articles-1'), 200)
      assert.equal(await send('/api/nowhere', 'ops-req-unknown-1'), 404)
      assert.equal(await send('/api/auth/me', 'ops-req-me-1', bearer), 200)
      for (const n of [1, 2, 3]) {
        assert.equal(await send('/api/admin/users', `ops-req-forbidden-${n}`, bearer), 403)
      }
      assert.equal(await send('/api/health/live', 'ops-req-live-1'), 200)
      const metrics = await send('/api/metrics', 'ops-req-metrics-1', {
        'x-monitoring-secret': SECRET,
      })
      assert.equal(metrics, 200)

      // Lines are written once the answer is sent: wait for the last logged one.
      const deadline = Date.now() + 5000
      while (!instance.output().includes('ops-req-forbidden-3') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const lines = instance
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line))
      const access = lines.filter((line) => line.msg === 'request')
      const byId = (id: string) => access.filter((line) => line.request_id === id)

      assert.deepInclude(byId('ops-req-articles-1')[0], {
        level: 30,
        method: 'GET',
        route: '/api/articles',
        status: 200,
        request_id: 'ops-req-articles-1',
      })
      assert.include(byId('ops-req-unknown-1')[0], { route: 'unmatched', status: 404 })
      assert.include(byId('ops-req-me-1')[0], { route: '/api/auth/me', userId: clerk.id })
      assert.include(byId('ops-req-forbidden-2')[0], {
        route: '/api/admin/users',
        status: 403,
        userId: clerk.id,
      })
      for (const { id } of sent) {
        const expected = id === 'ops-req-live-1' || id === 'ops-req-metrics-1' ? 0 : 1
        assert.lengthOf(byId(id), expected, id)
        if (expected) assert.isNumber(byId(id)[0].ms)
      }
      // Three 403s of one user on one route within a minute: one warning.
      const warnings = lines.filter((line) => line.msg === 'forbidden')
      assert.lengthOf(warnings, 1)
      assert.include(warnings[0], {
        level: 40,
        userId: clerk.id,
        permission: PERMISSIONS.user.list,
        request_id: 'ops-req-forbidden-1',
      })
    } finally {
      await instance.stop()
    }
  })

  test('rate-limit refusals: one access-log line per address and route per minute, all counted', async ({
    assert,
  }) => {
    const instance = await startAppProcess({
      LOG_LEVEL: 'info',
      LIMIT_LOGIN_FAILURES_PER_IP: '2',
      METRICS_SECRET: SECRET,
    })
    const login = () =>
      fetch(`${instance.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'nobody', password: 'x', captchaToken: 'bogus' }),
      }).then((response) => response.status)
    try {
      // Two failures (a bad credential counts against the address), then five refusals.
      const statuses = []
      for (let i = 0; i < 7; i++) statuses.push(await login())
      assert.deepEqual(statuses, [400, 400, 429, 429, 429, 429, 429])
      const metrics = await fetch(`${instance.url}/api/metrics`, {
        headers: { 'x-monitoring-secret': SECRET },
      }).then((response) => response.text())
      assert.equal(
        sample(metrics, 'http_request_duration_seconds_count', {
          route: '/api/auth/login',
          status: '429',
        }),
        5
      )
      // A line written after every login's: once it is out, so are theirs.
      assert.equal((await fetch(`${instance.url}/api/articles`)).status, 200)
      const access = () =>
        instance
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line))
          .filter((line) => line.msg === 'request')
      await until('the marker line', () => access().some((line) => line.route === '/api/articles'))
      const lines = access().filter((line) => line.route === '/api/auth/login')
      assert.deepEqual(
        lines.map((line) => line.status),
        [400, 400, 429]
      )
      assert.notProperty(lines[2], 'repeated')
    } finally {
      await instance.stop()
    }
  })
})
