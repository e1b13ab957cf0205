import { test } from '@japa/runner'
import pg from 'pg'
import env from '#start/env'
import { ADMIN_ACCOUNT, ADMIN_PASSWORD } from '#tests/helpers/auth'
import { freshPgDatabase, pgConnection } from '#tests/helpers/pg_database'
import {
  startAppProcess,
  type AppProcess,
  earnCredential,
  fetchJson,
} from '#tests/helpers/app_process'
import { until as untilEvery } from '#tests/helpers/until'

const DATABASE = `${env.get('PG_DB_NAME', 'adonis_rbac_test')}_replica`

/**
 * A real streaming replica of the test PostgreSQL (made by .ci/run with pg_basebackup -R on
 * TEST_PG_REPLICA_PORT). The app gets PG_READ_HOST/PG_READ_PORT: public reads must be served by
 * the replica, and a revocation on the primary must apply at once while the replica lags.
 */
const replicaPort = Number(process.env.TEST_PG_REPLICA_PORT)

/** The replica catches up in its own time: checked every 100 ms for up to 30 s. */
const until = (what: string, check: () => Promise<boolean>) =>
  untilEvery(what, check, { timeoutMs: 30_000, everyMs: 100 })

test.group('Read replica: public reads only', (group) => {
  let primary: pg.Client
  let replica: pg.Client
  let instance: AppProcess

  group.setup(async () => {
    if (!replicaPort) {
      throw new Error('TEST_PG_REPLICA_PORT is not set: this suite needs a streaming replica')
    }
    primary = await freshPgDatabase(DATABASE)
    // The new database and its schema reach the replica through WAL.
    await until('the database on the replica', async () => {
      const client = new pg.Client({ ...pgConnection(DATABASE), port: replicaPort })
      await client.connect()
      try {
        await client.query('SELECT 1 FROM users LIMIT 1')
        replica = client
        return true
      } catch (error) {
        await client.end()
        throw error
      }
    })
    const { rows } = await replica.query('SELECT pg_is_in_recovery() AS standby')
    if (!rows[0].standby) throw new Error(`port ${replicaPort} is not a standby`)
    instance = await startAppProcess({
      DB_CONNECTION: 'pg',
      PG_DB_NAME: DATABASE,
      PG_READ_HOST: '127.0.0.1',
      PG_READ_PORT: String(replicaPort),
    })
    return async () => {
      await replica.query('SELECT pg_wal_replay_resume()').catch(() => {})
      await instance.stop()
      await primary.end()
      await replica.end()
    }
  })

  const json = (path: string, init: RequestInit = {}) => fetchJson(`${instance.url}${path}`, init)
  const publish = (slug: string) =>
    primary.query(
      `INSERT INTO articles (slug, title, summary, content, category, status, published_at, created_at, updated_at)
       VALUES ($1, $1, 'S', 'C', 'news', 'published', now() - interval '1 minute', now(), now())`,
      [slug]
    )
  const onReplica = async (slug: string) =>
    (await replica.query('SELECT 1 FROM articles WHERE slug = $1', [slug])).rowCount === 1
  const publicConnections = async (client: pg.Client) =>
    (
      await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = $1 AND application_name = 'public'`,
        [DATABASE]
      )
    ).rows[0].n as number

  test('public reads are served by the replica; the primary sees none of them', async ({
    assert,
  }) => {
    await publish('on-both')
    await until('the article on the replica', () => onReplica('on-both'))
    assert.equal((await json('/api/articles/on-both')).status, 200)
    assert.equal((await json('/api/articles')).body.meta.total, 1)
    assert.isAtLeast(await publicConnections(replica), 1)
    assert.equal(await publicConnections(primary), 0)
  }).timeout(60_000)

  test('replay paused: a new article stays unseen, a revoked token is refused at once', async ({
    assert,
  }) => {
    // An administrator's token, through the real login (everything here reads the primary).
    const captchaToken = await earnCredential(primary, instance.url)
    const login = await json('/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ account: ADMIN_ACCOUNT, password: ADMIN_PASSWORD, captchaToken }),
    })
    assert.equal(login.status, 200)
    const auth = { authorization: `Bearer ${login.body.data.token}` }
    assert.equal((await json('/api/auth/me', { headers: auth })).status, 200)

    await replica.query('SELECT pg_wal_replay_pause()')
    await until('replay paused', async () => {
      const { rows } = await replica.query('SELECT pg_get_wal_replay_pause_state() AS state')
      return rows[0].state === 'paused'
    })
    await publish('while-paused')
    await primary.query('UPDATE users SET token_version = token_version + 1 WHERE account = $1', [
      ADMIN_ACCOUNT,
    ])

    // The replica lags: the public module does not see the new article...
    assert.isFalse(await onReplica('while-paused'))
    assert.equal((await json('/api/articles/while-paused')).status, 404)
    // ...while the revocation, read on the primary, applies on the very next request.
    const me = await json('/api/auth/me', { headers: auth })
    assert.equal(me.status, 401)
    assert.equal(me.body.errors[0].code, 'E_UNAUTHORIZED')

    await replica.query('SELECT pg_wal_replay_resume()')
    await until('the article on the replica', () => onReplica('while-paused'))
    assert.equal((await json('/api/articles/while-paused')).status, 200)
    assert.equal((await json('/api/auth/me', { headers: auth })).status, 401)
  }).timeout(60_000)
})
