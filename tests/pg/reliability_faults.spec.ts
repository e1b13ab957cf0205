import { test } from '@japa/runner'
import env from '#start/env'
import type pg from 'pg'
import { signAdminToken } from '#auth/jwt'
import { ADMIN_ACCOUNT, ADMIN_PASSWORD } from '#tests/helpers/auth'
import { startTcpProxy } from '#tests/helpers/tcp_proxy'
import { freshPgDatabase } from '#tests/helpers/pg_database'
import {
  startAppProcess,
  type AppProcess,
  earnCredential,
  readJson,
} from '#tests/helpers/app_process'

// Derived from the test database's name, so parallel runs with their own PG_DB_NAME never share it.
const DATABASE = `${env.get('PG_DB_NAME', 'adonis_rbac_test')}_faults`

/**
 * The app runs as its own process against PostgreSQL through a TCP proxy the test controls.
 * Cutting the proxy must turn every database-backed answer into a 5xx in the error contract
 * (never a 200 with an empty page, never a 401 or 404); restoring it must bring the same
 * requests back to success without restarting the app.
 */
test.group('Reliability: the database goes away and comes back', (group) => {
  let db: pg.Client
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>
  let instance: AppProcess

  group.setup(async () => {
    db = await freshPgDatabase(DATABASE)
    await db.query(
      `INSERT INTO articles (slug, title, summary, content, category, status, published_at, created_at, updated_at)
       VALUES ('fault-tolerant', 'Fault tolerant', 'S', 'C', 'news', 'published', now() - interval '1 hour', now(), now())`
    )
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 })
    instance = await startAppProcess({
      DB_CONNECTION: 'pg',
      PG_PORT: String(proxy.port),
      PG_DB_NAME: DATABASE,
    })
    return async () => {
      await instance.stop()
      await proxy.close()
      await db.end()
    }
  })

  test('protected, login, public and ready requests answer 5xx while the database is cut (live stays 200), and recover', async ({
    assert,
  }) => {
    const { rows } = await db.query('SELECT id FROM users WHERE account = $1', [ADMIN_ACCOUNT])
    // A session row in the instance's database, as a login would have written it.
    const sessionId = 'faults-session-0000000'
    const now = Date.now()
    await db.query(
      `INSERT INTO admin_sessions (id, user_id, ip, user_agent, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, '127.0.0.1', 'test', $3, $3, $4)`,
      [sessionId, rows[0].id, now, now + 3_600_000]
    )
    const { token } = await signAdminToken(rows[0].id, 0, sessionId)
    const call = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${instance.url}${path}`, init)
      return { status: response.status, body: await readJson(response) }
    }
    const credential = () => earnCredential(db, instance.url)
    const requests = (captchaToken: string) => ({
      'me': () => call('/api/auth/me', { headers: { authorization: `Bearer ${token}` } }),
      'admin list': () =>
        call('/api/admin/users', { headers: { authorization: `Bearer ${token}` } }),
      'public list': () => call('/api/articles'),
      'public detail': () => call('/api/articles/fault-tolerant'),
      'health': () => call('/api/health'),
      'ready': () => call('/api/health/ready'),
      'login': () =>
        call('/api/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ account: ADMIN_ACCOUNT, password: ADMIN_PASSWORD, captchaToken }),
        }),
    })

    // Healthy first.
    for (const [name, request] of Object.entries(requests(await credential()))) {
      const { status } = await request()
      assert.equal(status, 200, `${name} before the cut`)
    }

    // Cut: everything that needs the database is a 5xx in the error contract.
    const tokenBeforeCut = await credential()
    proxy.cut()
    for (const [name, request] of Object.entries(requests(tokenBeforeCut))) {
      const { status, body } = await request()
      assert.isAtLeast(status, 500, `${name} while cut answered ${status}`)
      assert.isBelow(status, 600)
      assert.lengthOf(body.errors, 1, name)
      assert.oneOf(body.errors[0].code, ['E_UNAVAILABLE', 'E_INTERNAL'], name)
      assert.notMatch(JSON.stringify(body), /select|insert|delete|ECONN|postgres/i, name)
    }

    // Alive all the same: liveness does no I/O, so an orchestrator does not restart the instance.
    const live = await call('/api/health/live')
    assert.equal(live.status, 200)
    assert.deepEqual(live.body, { data: { status: 'ok' } })

    // Restored: the same requests succeed again, same process.
    proxy.restore()
    const pid = instance.child.pid
    for (const [name, request] of Object.entries(requests(await credential()))) {
      const { status } = await request()
      assert.equal(status, 200, `${name} after the restore`)
    }
    assert.equal(instance.child.pid, pid)
    assert.isNull(instance.child.exitCode)
  }).timeout(120_000)
})
