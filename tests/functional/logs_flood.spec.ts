import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { PERMISSIONS } from '#auth/permissions'
import { MAX_REFUSAL_ROWS_PER_ACCOUNT, OVERFLOW_IP } from '#auth/login_log'
import { withRealCommits } from '#tests/helpers/database'
import { startAppProcess } from '#tests/helpers/app_process'
import { sendFrom } from '#tests/helpers/http_from'
import {
  createAdmin,
  loginWith,
  sessionToken,
  superAdminUser,
  userWithPermissions,
} from '#tests/helpers/auth'

/**
 * Log flooding from the attacker's side (docs/architecture.md, "Accountability"): refused attempts cost one row
 * per key per minute (and a bounded number per account), whatever the rate; their counts still
 * add up to every attempt. A client cannot choose the request id stored in the rows.
 */
const sum = (rows: { count: number | string }[]) =>
  rows.reduce((total, row) => total + Number(row.count), 0)

test.group('Log flooding: refused logins', (group) => {
  withRealCommits(group)

  test('40 refused logins from 40 addresses on one account: a capped number of rows, counts summing to 40', async ({
    assert,
  }) => {
    await createAdmin('flooded')
    for (let i = 0; i < 40; i++) {
      // No captcha solved: each attempt is refused before any password check.
      const reply = await sendFrom(`127.0.0.${10 + i}`, 'POST', '/api/auth/login', {
        body: { account: i % 2 ? 'FLOODED' : 'flooded', password: 'x', captchaToken: 'forged' },
      })
      assert.equal(reply.status, 400)
    }
    const rows = await db.from('login_logs').where('outcome', 'captcha_token_invalid')
    assert.equal(sum(rows), 40, 'every attempt is counted')
    // One row per address up to the cap; the rest of the minute in the overflow row. (A minute
    // boundary during the burst may start the rows over once.)
    const overflow = rows.filter((row) => row.ip === OVERFLOW_IP)
    assert.isAtMost(rows.length - overflow.length, 2 * MAX_REFUSAL_ROWS_PER_ACCOUNT)
    assert.isAtMost(overflow.length, 2)
    assert.isAtMost(rows.length, 2 * (MAX_REFUSAL_ROWS_PER_ACCOUNT + 1))
    if (rows.length <= MAX_REFUSAL_ROWS_PER_ACCOUNT + 1) {
      assert.lengthOf(overflow, 1)
      assert.equal(Number(overflow[0].count), 40 - MAX_REFUSAL_ROWS_PER_ACCOUNT)
    }
  })

  test('repeated refusals of one key are one row; successes are one row each', async ({
    client,
    assert,
  }) => {
    await createAdmin('repeated')
    for (let i = 0; i < 6; i++) {
      await client
        .post('/api/auth/login')
        .json({ account: 'repeated', password: 'x', captchaToken: 'forged' })
    }
    for (let i = 0; i < 2; i++) {
      const ok = await loginWith(client, 'repeated')
      ok.assertStatus(200)
    }
    const refused = await db.from('login_logs').where('outcome', 'captcha_token_invalid')
    assert.isAtMost(refused.length, 2, 'one row per minute')
    assert.equal(sum(refused), 6)
    const succeeded = await db.from('login_logs').where('outcome', 'succeeded')
    assert.deepEqual(
      succeeded.map((row) => Number(row.count)),
      [1, 1]
    )

    // The admin page shows the count.
    const page = await client
      .get('/api/admin/login-logs')
      .qs({ outcome: 'captcha_token_invalid' })
      .loginAs(await superAdminUser())
    page.assertStatus(200)
    assert.equal(
      page.body().data.reduce((total: number, row: any) => total + row.count, 0),
      6
    )
  })
})

test.group('Log flooding: refused admin writes', (group) => {
  withRealCommits(group)

  test('60 refused writes in a burst from one account: one row (per minute) with count 60', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([PERMISSIONS.user.list])
    const victim = await createAdmin('burst.victim')
    const { token } = await sessionToken(user.id, user.tokenVersion)
    const replies = await Promise.all(
      Array.from({ length: 60 }, () =>
        sendFrom('127.0.0.1', 'POST', `/api/admin/users/${victim.id}/unlock`, {
          headers: { authorization: `Bearer ${token}` },
        })
      )
    )
    assert.deepEqual([...new Set(replies.map((reply) => reply.status))], [403])
    const rows = await db.from('audit_logs').where('actor_id', user.id).where('outcome', 'refused')
    assert.isAtMost(rows.length, 2, 'one row per minute')
    assert.equal(sum(rows), 60)
    assert.equal(rows[0].permission, PERMISSIONS.user.unlock)

    // Successful writes are never aggregated: one row each.
    const boss = await superAdminUser()
    for (const nickname of ['First', 'Second']) {
      const edit = await client
        .put(`/api/admin/users/${victim.id}`)
        .json({ nickname })
        .loginAs(boss)
      edit.assertStatus(200)
    }
    const done = await db.from('audit_logs').where('outcome', 'succeeded')
    assert.deepEqual(
      done.map((row) => Number(row.count)),
      [1, 1]
    )
    const page = await client.get('/api/admin/audit-logs').qs({ outcome: 'refused' }).loginAs(boss)
    page.assertStatus(200)
    assert.equal(
      page.body().data.reduce((total: number, row: any) => total + row.count, 0),
      60
    )
  })
})

test.group('X-Request-Id', (group) => {
  withRealCommits(group)

  /** A refused write (403): its audit row stores the request id. */
  const refusedWrite = async () => {
    const { user } = await userWithPermissions([PERMISSIONS.user.list])
    const victim = await createAdmin(`rid.victim.${user.id}`)
    const { token } = await sessionToken(user.id, user.tokenVersion)
    return { user, path: `/api/admin/users/${victim.id}/unlock`, token }
  }
  const storedIds = async (actorId: number) =>
    (await db.from('audit_logs').where('actor_id', actorId).orderBy('id')).map(
      (row) => row.request_id
    )

  test('a forged X-Request-Id from a direct client is not stored: one is generated', async ({
    assert,
  }) => {
    const { user, path, token } = await refusedWrite()
    const reply = await sendFrom('127.0.0.1', 'POST', path, {
      headers: { 'authorization': `Bearer ${token}`, 'x-request-id': 'forged-request-0001' },
    })
    assert.equal(reply.status, 403)
    assert.notEqual(reply.headers['x-request-id'], 'forged-request-0001')
    const [stored] = await storedIds(user.id)
    assert.isString(stored)
    assert.notEqual(stored, 'forged-request-0001')
    assert.equal(stored, reply.headers['x-request-id'])
  })

  test('through a trusted proxy: a well-formed id is kept, a malformed one replaced', async ({
    assert,
  }) => {
    const { user, path, token } = await refusedWrite()
    const instance = await startAppProcess({ TRUSTED_PROXIES: '127.0.0.1' })
    try {
      // Each from its own forwarded client, so each refusal has its own row.
      const send = (from: string, forwardedFor: string, requestId: string) =>
        sendFrom(from, 'POST', path, {
          port: instance.port,
          headers: {
            'authorization': `Bearer ${token}`,
            'x-forwarded-for': forwardedFor,
            'x-request-id': requestId,
          },
        })
      const kept = await send('127.0.0.1', '10.9.0.1', 'proxy-req.0001_ok')
      const malformed = await send('127.0.0.1', '10.9.0.2', 'bad id; DROP')
      const tooShort = await send('127.0.0.1', '10.9.0.3', 'short')
      const notTheProxy = await send('127.0.0.2', '10.9.0.4', 'direct-req-0002')
      for (const reply of [kept, malformed, tooShort, notTheProxy]) assert.equal(reply.status, 403)
      assert.equal(kept.headers['x-request-id'], 'proxy-req.0001_ok')
      for (const reply of [malformed, tooShort, notTheProxy]) {
        assert.notInclude(
          ['bad id; DROP', 'short', 'direct-req-0002'],
          reply.headers['x-request-id'] as string
        )
      }
      const stored = await storedIds(user.id)
      assert.deepEqual(
        stored,
        [kept, malformed, tooShort, notTheProxy].map((reply) => reply.headers['x-request-id'])
      )
      const rows = await db.from('audit_logs').where('actor_id', user.id).orderBy('id')
      assert.deepEqual(
        rows.map((row) => row.ip),
        ['10.9.0.1', '10.9.0.2', '10.9.0.3', '127.0.0.2']
      )
    } finally {
      await instance.stop()
    }
  })
})
