import { test } from '@japa/runner'
import env from '#start/env'
import type pg from 'pg'
import { mintCredential } from '#tests/helpers/captcha'
import { ADMIN_ACCOUNT, ADMIN_PASSWORD } from '#tests/helpers/auth'
import { startTcpProxy } from '#tests/helpers/tcp_proxy'
import { freshPgDatabase } from '#tests/helpers/pg_database'
import { flushLimiterRedis } from '#tests/helpers/redis'
import {
  startAppProcess,
  type AppProcess,
  earnCredential,
  fetchJson,
  runAce,
} from '#tests/helpers/app_process'

const DATABASE = `${env.get('PG_DB_NAME', 'adonis_rbac_test')}_redis`

/**
 * LIMITER_STORE=redis against the machine's Redis, reached through a TCP proxy the test can cut:
 * two instances share the counters, and with Redis gone a login fails closed (503) before
 * anything after the limiter runs: the credential is not consumed, no password is verified.
 */
test.group('Redis limiter store: shared counters, fail closed', (group) => {
  let db: pg.Client
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>
  let a: AppProcess
  let b: AppProcess

  group.setup(async () => {
    db = await freshPgDatabase(DATABASE)
    await flushLimiterRedis()
    proxy = await startTcpProxy({
      host: env.get('REDIS_HOST', '127.0.0.1'),
      port: env.get('REDIS_PORT', 6379),
    })
    const instanceEnv = {
      DB_CONNECTION: 'pg',
      PG_DB_NAME: DATABASE,
      LIMITER_STORE: 'redis',
      REDIS_PORT: String(proxy.port),
      LOG_LEVEL: 'error',
    }
    ;[a, b] = await Promise.all([startAppProcess(instanceEnv), startAppProcess(instanceEnv)])
    return async () => {
      await Promise.all([a.stop(), b.stop()])
      await proxy.close()
      await db.end()
    }
  })
  group.each.setup(async () => {
    proxy.restore()
    await flushLimiterRedis()
    await db.query('DELETE FROM login_logs')
  })

  const credential = (instance: AppProcess) => earnCredential(db, instance.url)
  const login = (instance: AppProcess, captchaToken: string, password: string) =>
    fetchJson(`${instance.url}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ account: ADMIN_ACCOUNT, password, captchaToken }),
    })

  test('failures on A and B add up in Redis; the sixth is refused on either', async ({
    assert,
  }) => {
    for (const instance of [a, b, a, b, a]) {
      const failed = await login(instance, await credential(instance), 'Wrong-Guess-9')
      assert.equal(failed.status, 401)
    }
    // After 3 failures this address is served level 2, which passes an account's lock: the lock
    // itself is seen with a level-0 credential, as a fresh address would get.
    const refused = await login(b, await mintCredential(db), ADMIN_PASSWORD)
    assert.equal(refused.status, 429)
    assert.equal(refused.body.errors[0].code, 'E_TOO_MANY_REQUESTS')
    // The counters are in Redis, not in the database store's table.
    const { rows } = await db.query('SELECT count(*)::int AS n FROM rate_limits')
    assert.equal(rows[0].n, 0)

    // Unlock works on this store too: the command clears the keys in Redis (each instance forgets
    // a block it remembered within two seconds).
    const store = { DB_CONNECTION: 'pg', PG_DB_NAME: DATABASE, LIMITER_STORE: 'redis' }
    const run = runAce(['user:unlock', ADMIN_ACCOUNT], store)
    assert.equal(run.status, 0, run.output)
    await new Promise((resolve) => setTimeout(resolve, 2100))
    assert.equal((await login(b, await credential(b), ADMIN_PASSWORD)).status, 200)
  }).timeout(120_000)

  test('Redis down during login: 503, nothing past the limiter runs; back up: the same credential logs in', async ({
    assert,
  }) => {
    const captchaToken = await credential(a)
    proxy.cut()
    const down = await login(a, captchaToken, ADMIN_PASSWORD)
    assert.equal(down.status, 503)
    assert.deepEqual(down.body, {
      errors: [{ code: 'E_UNAVAILABLE', message: 'The service is temporarily unavailable' }],
    })
    // Fail closed before the credential, the account and the hash: no login-log row either.
    const logged = await db.query('SELECT count(*)::int AS n FROM login_logs')
    assert.equal(logged.rows[0].n, 0)
    const ready = await fetchJson(`${a.url}/api/health/ready`)
    assert.equal(ready.status, 503)
    assert.equal((await fetchJson(`${a.url}/api/health/live`)).status, 200)

    proxy.restore()
    let after = await login(a, captchaToken, ADMIN_PASSWORD)
    // The client reconnects on its own; the first command after the restore may race it.
    for (let i = 0; i < 30 && after.status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      after = await login(a, captchaToken, ADMIN_PASSWORD)
    }
    assert.equal(after.status, 200, JSON.stringify(after.body))
    assert.equal((await fetchJson(`${a.url}/api/health/ready`)).status, 200)
  }).timeout(120_000)
})
