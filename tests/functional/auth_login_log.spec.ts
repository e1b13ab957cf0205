import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { PERMISSIONS } from '#auth/permissions'
import { withRealCommits } from '#tests/helpers/database'
import {
  TEST_PASSWORD,
  createAdmin,
  freshCredential,
  superAdminUser,
  userWithPermissions,
} from '#tests/helpers/auth'
import { assertForbidden } from '#tests/helpers/assertions'

async function attempt(client: ApiClient, account: string, password: string, credential = true) {
  return client
    .post('/api/auth/login')
    .header('user-agent', 'LogTest/1.0')
    .json({
      account,
      password,
      captchaToken: credential ? await freshCredential() : 'not-a-credential',
    })
}

async function logRows() {
  return db.from('login_logs').orderBy('id', 'asc')
}

test.group('Login log', (group) => {
  withRealCommits(group)

  test('each outcome writes exactly one row; the HTTP answers of unknown, wrong and disabled stay identical', async ({
    client,
    assert,
  }) => {
    const owner = await createAdmin('logged.owner')
    const disabled = await createAdmin('logged.disabled')
    await db.from('users').where('id', disabled.id).update({ status: 'disabled' })

    const cases = [
      ['logged.owner', TEST_PASSWORD, true, 'succeeded', owner.id],
      ['logged.nobody', TEST_PASSWORD, true, 'unknown_account', null],
      ['logged.owner', 'Wrong-Passw0rd-1', true, 'wrong_password', owner.id],
      ['logged.disabled', TEST_PASSWORD, true, 'account_disabled', disabled.id],
      ['logged.owner', TEST_PASSWORD, false, 'captcha_token_invalid', null],
    ] as const
    const refusals: unknown[] = []
    for (const [account, password, credential, outcome, userId] of cases) {
      const before = (await logRows()).length
      const response = await attempt(client, account, password, credential)
      const rows = await logRows()
      assert.lengthOf(rows, before + 1, `${outcome}: one row`)
      const row = rows[rows.length - 1]
      assert.equal(row.outcome, outcome)
      assert.equal(row.account, account)
      assert.equal(row.ip, '127.0.0.1')
      assert.equal(row.user_agent, 'LogTest/1.0')
      assert.equal(row.user_id === null ? null : Number(row.user_id), userId)
      if (['unknown_account', 'wrong_password', 'account_disabled'].includes(outcome)) {
        refusals.push({ status: response.status(), body: response.body() })
      }
    }
    assert.deepEqual(refusals[0], refusals[1])
    assert.deepEqual(refusals[1], refusals[2])
  })

  test('no secret in any column: password, credential, device token, JWT', async ({
    client,
    assert,
  }) => {
    await createAdmin('logged.secret')
    const credential = await freshCredential()
    const ok = await client
      .post('/api/auth/login')
      .json({ account: 'logged.secret', password: TEST_PASSWORD, captchaToken: credential })
    ok.assertStatus(200)
    const { token, deviceToken } = ok.body().data
    await attempt(client, 'logged.secret', 'Guessed-Passw0rd-9')
    const secrets = [TEST_PASSWORD, 'Guessed-Passw0rd-9', credential, token, deviceToken]
    for (const row of await logRows()) {
      for (const [column, value] of Object.entries(row)) {
        for (const secret of secrets) {
          assert.notInclude(String(value), secret, `login_logs.${column}`)
        }
      }
    }
  })

  test('an oversized account name or user agent is stored cut to the column', async ({
    client,
    assert,
  }) => {
    await client
      .post('/api/auth/login')
      .header('user-agent', 'U'.repeat(2000))
      .json({ account: 'a'.repeat(64), password: 'x', captchaToken: 'nope' })
    const [row] = await db.from('login_logs').orderBy('id', 'desc').limit(1)
    assert.lengthOf(row.user_agent, 255)
    assert.lengthOf(row.account, 64)
  })

  test('refused by the limiter: one row per key per minute, not one per request', async ({
    client,
    assert,
  }) => {
    await createAdmin('logged.flood')
    for (let i = 0; i < 8; i++) await attempt(client, 'logged.flood', 'Wrong-Passw0rd-1')
    const throttled = await db
      .from('login_logs')
      .where('account', 'logged.flood')
      .where('outcome', 'throttled')
    assert.lengthOf(throttled, 1)
  })
})

test.group('Login log: the admin page', (group) => {
  withRealCommits(group)

  test('listed newest first with filters, for holders of its code only', async ({
    client,
    assert,
  }) => {
    const { user: reader } = await userWithPermissions([PERMISSIONS.loginLog.list])
    await createAdmin('listed.one')
    await attempt(client, 'listed.one', TEST_PASSWORD)
    await attempt(client, 'listed.one', 'Wrong-Passw0rd-1')
    await attempt(client, 'listed.two', TEST_PASSWORD)

    const all = await client.get('/api/admin/login-logs').loginAs(reader)
    all.assertStatus(200)
    assert.equal(all.body().meta.total, 3)
    assert.deepEqual(
      all.body().data.map((row: any) => row.outcome),
      ['unknown_account', 'wrong_password', 'succeeded']
    )
    assert.sameMembers(Object.keys(all.body().data[0]), [
      'id',
      'createdAt',
      'account',
      'userId',
      'ip',
      'userAgent',
      'outcome',
      'count',
    ])

    const byAccount = await client
      .get('/api/admin/login-logs')
      .qs({ account: 'listed.one', outcome: 'succeeded' })
      .loginAs(reader)
    assert.equal(byAccount.body().meta.total, 1)

    const future = new Date(Date.now() + 3_600_000).toISOString()
    const none = await client.get('/api/admin/login-logs').qs({ from: future }).loginAs(reader)
    assert.equal(none.body().meta.total, 0)
    const past = new Date(Date.now() - 3_600_000).toISOString()
    const window = await client
      .get('/api/admin/login-logs')
      .qs({ from: past, to: future })
      .loginAs(reader)
    assert.equal(window.body().meta.total, 3)

    const bad = await client
      .get('/api/admin/login-logs')
      .qs({ outcome: 'hacked', from: 'yesterday' })
      .loginAs(reader)
    bad.assertStatus(422)

    assertForbidden(
      assert,
      await client.get('/api/admin/login-logs').loginAs(await createAdmin('no.logs'))
    )
    ;(await client.get('/api/admin/login-logs').loginAs(await superAdminUser())).assertStatus(200)
  })
})
