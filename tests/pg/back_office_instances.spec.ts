import { test } from '@japa/runner'
import type pg from 'pg'
import env from '#start/env'
import { ADMIN_ACCOUNT, ADMIN_PASSWORD } from '#tests/helpers/auth'
import { freshPgDatabase } from '#tests/helpers/pg_database'
import {
  type AppProcess,
  earnCredential,
  fetchJson,
  startAppProcess,
} from '#tests/helpers/app_process'

const DATABASE = `${env.get('PG_DB_NAME', 'adonis_rbac_test')}_settings`

/**
 * Dictionaries and parameters are cached per process for the settings version
 * (app/services/settings_cache.ts): a change written through instance A, or by raw SQL, shows on
 * the very next request to instance B, whose cache was warm.
 */
test.group('Back-office modules: two instances, one database', (group) => {
  let db: pg.Client
  let a: AppProcess
  let b: AppProcess

  group.setup(async () => {
    db = await freshPgDatabase(DATABASE)
    const instanceEnv = { DB_CONNECTION: 'pg', PG_DB_NAME: DATABASE, LIMITER_STORE: 'database' }
    ;[a, b] = await Promise.all([startAppProcess(instanceEnv), startAppProcess(instanceEnv)])
    return async () => {
      await Promise.all([a.stop(), b.stop()])
      await db.end()
    }
  })

  test('a dictionary or parameter change on A shows on the next request to B', async ({
    assert,
  }) => {
    const login = await fetchJson(`${a.url}/api/auth/login`, {
      method: 'POST',
      body: JSON.stringify({
        account: ADMIN_ACCOUNT,
        password: ADMIN_PASSWORD,
        captchaToken: await earnCredential(db, a.url),
      }),
    })
    assert.equal(login.status, 200)
    const headers = { authorization: `Bearer ${login.body.data.token}` }
    const labelsOnB = async () => {
      const response = await fetchJson(`${b.url}/api/dicts/sys_user_status`, { headers })
      assert.equal(response.status, 200)
      return response.body.data.items.map((item: { label: string }) => item.label)
    }
    const titleOnB = async () => {
      const response = await fetchJson(`${b.url}/api/params/site.title`)
      return response.status === 200 ? response.body.data.value : response.status
    }

    // Warm B's cache, twice.
    assert.deepEqual(await labelsOnB(), ['Enabled', 'Disabled'])
    assert.deepEqual(await labelsOnB(), ['Enabled', 'Disabled'])
    assert.equal(await titleOnB(), 'Adonis RBAC')
    assert.equal(await titleOnB(), 'Adonis RBAC')

    const added = await fetchJson(`${a.url}/api/admin/dicts/sys_user_status/items`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ label: 'Locked', value: 'locked', sort: 9 }),
    })
    assert.equal(added.status, 201)
    assert.deepEqual(await labelsOnB(), ['Enabled', 'Disabled', 'Locked'])

    await db.query(`UPDATE dict_items SET label = 'On' WHERE value = 'enabled'`)
    assert.deepEqual(await labelsOnB(), ['On', 'Disabled', 'Locked'])

    const { rows } = await db.query(`SELECT id FROM params WHERE key = 'site.title'`)
    const changed = await fetchJson(`${a.url}/api/admin/params/${rows[0].id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ value: 'Renamed site' }),
    })
    assert.equal(changed.status, 200)
    assert.equal(await titleOnB(), 'Renamed site')

    await db.query(`UPDATE params SET is_public = false WHERE key = 'site.title'`)
    assert.equal(await titleOnB(), 404)
  })
})
