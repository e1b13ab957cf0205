import { test } from '@japa/runner'
import { captchaAt, mintCredential, rightVerify, TAKE_ANSWER_SQL } from '#tests/helpers/captcha'
import env from '#start/env'
import type pg from 'pg'
import { ADMIN_ACCOUNT, ADMIN_PASSWORD } from '#tests/helpers/auth'
import { freshPgDatabase } from '#tests/helpers/pg_database'
import { startAppProcess, type AppProcess, fetchJson, runAce } from '#tests/helpers/app_process'
import { flushLimiterRedis } from '#tests/helpers/redis'

// Derived from the test database's name, so parallel runs with their own PG_DB_NAME never share it.
const DATABASE = `${env.get('PG_DB_NAME', 'adonis_rbac_test')}_instances`

/**
 * Two app processes on different ports, one PostgreSQL database, the configured limiter store
 * (database by default; CI runs this file again with LIMITER_STORE=redis, and through PgBouncer):
 * everything that must be shared (challenges, credentials, tokenVersion, limiter counters) is.
 */
const LIMITER_STORE = env.get('LIMITER_STORE', 'database')
test.group('Reliability: two instances, one database', (group) => {
  let db: pg.Client
  let a: AppProcess
  let b: AppProcess

  group.setup(async () => {
    db = await freshPgDatabase(DATABASE)
    const instanceEnv = { DB_CONNECTION: 'pg', PG_DB_NAME: DATABASE, LIMITER_STORE }
    ;[a, b] = await Promise.all([startAppProcess(instanceEnv), startAppProcess(instanceEnv)])
    return async () => {
      await Promise.all([a.stop(), b.stop()])
      await db.end()
    }
  })

  const answerOf = async (captchaId: string) =>
    (await db.query(TAKE_ANSWER_SQL, [captchaId])).rows[0].answer_x

  test('a challenge from A verifies on B, the credential from B logs in on A, a reset on A kills the token on B', async ({
    assert,
  }) => {
    assert.notEqual(a.port, b.port)
    const challenge = await captchaAt(a.url)
    const verify = await fetchJson(`${b.url}/api/auth/captcha/verify`, {
      method: 'POST',
      body: JSON.stringify(
        await rightVerify(challenge, Number(await answerOf(challenge.captchaId)))
      ),
    })
    assert.equal(verify.status, 200)

    const login = await fetchJson(`${a.url}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({
        account: ADMIN_ACCOUNT,
        password: ADMIN_PASSWORD,
        captchaToken: verify.body.data.captchaToken,
      }),
    })
    assert.equal(login.status, 200)
    const token = login.body.data.token as string
    const auth = { authorization: `Bearer ${token}` }

    // The credential is spent for B too.
    const replay = await fetchJson(`${b.url}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({
        account: ADMIN_ACCOUNT,
        password: ADMIN_PASSWORD,
        captchaToken: verify.body.data.captchaToken,
      }),
    })
    assert.equal(replay.status, 400)

    // A second administrator whose token B accepts, until A resets its password.
    const created = await fetchJson(`${a.url}/api/admin/users`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        account: 'second.admin',
        nickname: 'Second',
        password: 'Second-Admin-Passw0rd',
      }),
    })
    assert.oneOf(created.status, [200, 201])
    const secondId = created.body.data.id
    const challenge2 = await captchaAt(b.url)
    const verify2 = await fetchJson(`${a.url}/api/auth/captcha/verify`, {
      method: 'POST',
      body: JSON.stringify(
        await rightVerify(challenge2, Number(await answerOf(challenge2.captchaId)))
      ),
    })
    const secondLogin = await fetchJson(`${b.url}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({
        account: 'second.admin',
        password: 'Second-Admin-Passw0rd',
        captchaToken: verify2.body.data.captchaToken,
      }),
    })
    assert.equal(secondLogin.status, 200)
    const secondAuth = { authorization: `Bearer ${secondLogin.body.data.token}` }
    assert.equal((await fetchJson(`${b.url}/api/auth/me`, { headers: secondAuth })).status, 200)

    const reset = await fetchJson(`${a.url}/api/admin/users/${secondId}/password-reset`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ password: 'Reset-By-Instance-A-1' }),
    })
    assert.equal(reset.status, 200)
    assert.equal((await fetchJson(`${b.url}/api/auth/me`, { headers: secondAuth })).status, 401)
    assert.equal((await fetchJson(`${a.url}/api/auth/me`, { headers: secondAuth })).status, 401)
    assert.equal((await fetchJson(`${b.url}/api/auth/me`, { headers: auth })).status, 200)
  }).timeout(120_000)

  test(`the login limiter counts across both instances (${LIMITER_STORE} store)`, async ({
    assert,
  }) => {
    await db.query('DELETE FROM rate_limits')
    if (LIMITER_STORE === 'redis') await flushLimiterRedis()
    const failOn = async (
      instance: AppProcess,
      password = 'Wrong-Guess-9',
      captchaToken?: string
    ) => {
      if (!captchaToken) {
        const challenge = await captchaAt(instance.url)
        const verify = await fetchJson(`${instance.url}/api/auth/captcha/verify`, {
          method: 'POST',
          body: JSON.stringify(
            await rightVerify(challenge, Number(await answerOf(challenge.captchaId)))
          ),
        })
        captchaToken = verify.body.data.captchaToken
      }
      return fetchJson(`${instance.url}/api/auth/login`, {
        method: 'POST',
        body: JSON.stringify({ account: ADMIN_ACCOUNT, password, captchaToken }),
      })
    }
    // 5 failures per account are allowed in the window: 3 on A and 2 on B.
    const dump = async () => JSON.stringify((await db.query('SELECT * FROM rate_limits')).rows)
    for (const instance of [a, b, a, b, a]) {
      const failed = await failOn(instance)
      assert.equal(failed.status, 401, `${JSON.stringify(failed.body)} ${await dump()}`)
    }
    // This address is now served level 2, which passes the account's lock: the lock is seen
    // with level-0 credentials, as a fresh address gets them.
    const blockedOnB = await failOn(b, undefined, await mintCredential(db))
    assert.equal(blockedOnB.status, 429, await dump())
    assert.equal(blockedOnB.body.errors[0].code, 'E_TOO_MANY_REQUESTS')
    assert.equal((await failOn(a, undefined, await mintCredential(db))).status, 429)

    // Unlocked by the command, a third process: both instances let the owner in again (each
    // forgets a block it remembered within two seconds).
    const run = runAce(['user:unlock', ADMIN_ACCOUNT], {
      DB_CONNECTION: 'pg',
      PG_DB_NAME: DATABASE,
    })
    assert.equal(run.status, 0, run.output)
    await new Promise((resolve) => setTimeout(resolve, 2100))
    assert.equal((await failOn(b, ADMIN_PASSWORD)).status, 200, await dump())
    assert.equal((await failOn(a, ADMIN_PASSWORD)).status, 200)
  }).timeout(120_000)
})
