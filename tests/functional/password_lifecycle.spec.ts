import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { runAce } from '#tests/helpers/app_process'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import adminAuthConfig from '#config/admin_auth'
import { PERMISSIONS } from '#auth/permissions'
import { isolate, withRealCommits } from '#tests/helpers/database'
import {
  ADMIN_ACCOUNT,
  TEST_PASSWORD,
  createAdmin,
  freshCredential,
  sessionToken,
  userWithPermissions,
} from '#tests/helpers/auth'

/** Issue 26, point 2: the password lifecycle (docs/architecture.md, "Password lifecycle"). */

const P = PERMISSIONS.user
const CHOSEN = 'Chosen-By-Someone-Else-41'
const OWN = ['Own-Choice-Lantern-52', 'Own-Choice-Meadow-63', 'Own-Choice-Harbor-74']

const ace = (args: string[], env: Record<string, string> = {}) => {
  const run = runAce(args, env)
  if (run.status !== 0) throw new Error(`node ace ${args.join(' ')}: ${run.output}`)
  return run.output
}

const seededAdmin = () => User.findByOrFail('account', ADMIN_ACCOUNT)

/** A real login (captcha credential, password): the JWT it returns. */
async function login(client: ApiClient, account: string, password: string) {
  const response = await client
    .post('/api/auth/login')
    .json({ account, password, captchaToken: await freshCredential() })
  response.assertStatus(200)
  return response.body().data.token as string
}

const code = (response: { body(): any }) => response.body().errors?.[0]?.code

/** What a pending account may and may not reach (start/routes/auth.ts lists the former). */
async function assertOnlyTheWayOut(client: ApiClient, assert: any, token: string) {
  for (const [method, url] of [
    ['get', '/api/admin/users'],
    ['get', '/api/admin/roles'],
    ['get', '/api/auth/me/grantable-menus'],
    ['get', '/api/auth/profile'],
    ['put', '/api/auth/profile'],
    ['put', '/api/auth/avatar'],
  ] as const) {
    const response = await client[method](url).bearerToken(token)
    assert.equal(response.status(), 403, `${method} ${url}`)
    assert.equal(code(response), 'E_PASSWORD_CHANGE_REQUIRED', `${method} ${url}`)
  }
  const me = await client.get('/api/auth/me').bearerToken(token)
  me.assertStatus(200)
  assert.isTrue(me.body().data.user.passwordChangeRequired)
  ;(await client.get('/api/auth/sessions').bearerToken(token)).assertStatus(200)
}

/** Logs in with the chosen password, is held at the door, changes it, and is let in. */
async function assertForcedChange(
  client: ApiClient,
  assert: any,
  account: string,
  password = CHOSEN
) {
  const user = await User.findByOrFail('account', account)
  assert.isTrue(user.mustChangePassword, 'the flag is set')
  const token = await login(client, account, password)
  await assertOnlyTheWayOut(client, assert, token)

  const changed = await client
    .put('/api/auth/password')
    .bearerToken(token)
    .json({ currentPassword: password, newPassword: OWN[0] })
  changed.assertStatus(200)
  const fresh = changed.body().data.token
  const me = await client.get('/api/auth/me').bearerToken(fresh)
  assert.isFalse(me.body().data.user.passwordChangeRequired)
  ;(await client.get('/api/auth/profile').bearerToken(fresh)).assertStatus(200)
  assert.isFalse((await User.findByOrFail('account', account)).mustChangePassword)
}

/** Settings changed by one test, put back after it. */
function withPasswordSettings(group: { each: { setup(fn: () => () => void): void } }) {
  group.each.setup(() => {
    const saved = { ...adminAuthConfig.passwords }
    return () => Object.assign(adminAuthConfig.passwords, saved)
  })
}

test.group('Password lifecycle: /me and expiry', (group) => {
  isolate(group)
  withPasswordSettings(group)

  test('/me.user: passwordChangeRequired false and passwordExpiresAt null without a max age', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('settled')
    const me = await client.get('/api/auth/me').loginAs(user)
    assert.include(me.body().data.user, {
      passwordChangeRequired: false,
      passwordExpiresAt: null,
      avatarUrl: null,
    })
    assert.isNull(me.body().data.pendingRequirement)
  })

  test('PASSWORD_MAX_AGE_DAYS: {name}')
    .with([
      { name: 'changed 29 days ago of 30: in, expiry shown', age: 29, maxAge: 30, pending: false },
      { name: 'changed 31 days ago of 30: expired, held', age: 31, maxAge: 30, pending: true },
      { name: 'changed 5 years ago, no max age: in', age: 1826, maxAge: 0, pending: false },
    ])
    .run(async ({ client, assert }, row) => {
      adminAuthConfig.passwords.maxAgeDays = row.maxAge
      const { user } = await userWithPermissions([P.list])
      user.passwordChangedAt = DateTime.now().minus({ days: row.age })
      await user.save()
      const me = await client.get('/api/auth/me').loginAs(user)
      me.assertStatus(200)
      assert.equal(me.body().data.user.passwordChangeRequired, row.pending)
      assert.equal(
        me.body().data.pendingRequirement,
        row.pending ? 'E_PASSWORD_CHANGE_REQUIRED' : null
      )
      const expiresAt = me.body().data.user.passwordExpiresAt
      if (row.maxAge === 0) assert.isNull(expiresAt)
      else {
        const expected = user.passwordChangedAt.plus({ days: row.maxAge })
        // SQLite keeps whole seconds, PostgreSQL microseconds.
        assert.closeTo(DateTime.fromISO(expiresAt).toMillis(), expected.toMillis(), 1000)
      }
      const users = await client.get('/api/admin/users').loginAs(user)
      users.assertStatus(row.pending ? 403 : 200)
      if (row.pending) assert.equal(code(users), 'E_PASSWORD_CHANGE_REQUIRED')
    })
})

/** Other processes (ace) and the password change's limiter: real commits. */
test.group('Password lifecycle: chosen by someone else, changed first', (group) => {
  withRealCommits(group)
  withPasswordSettings(group)

  test(
    '{name}: 403 E_PASSWORD_CHANGE_REQUIRED everywhere but /me, password, logout, sessions, until changed'
  )
    .with([
      {
        name: 'created by an administrator (API)',
        async make(client: ApiClient) {
          const { role } = await userWithPermissions([P.list])
          const response = await client
            .post('/api/admin/users')
            .loginAs(await seededAdmin())
            .json({ account: 'handed.out', password: CHOSEN, roleIds: [role.id] })
          response.assertStatus(201)
          return response.body().data.passwordChangeRequired as boolean
        },
      },
      {
        name: 'reset by an administrator (API)',
        async make(client: ApiClient) {
          const { user } = await userWithPermissions([P.list], { account: 'handed.out' })
          const response = await client
            .post(`/api/admin/users/${user.id}/password-reset`)
            .loginAs(await seededAdmin())
            .json({ password: CHOSEN })
          response.assertStatus(200)
          return response.body().data.passwordChangeRequired as boolean
        },
      },
      {
        name: 'created by node ace user:create',
        async make() {
          const output = ace(['user:create', 'handed.out', '--super-admin', `--password=${CHOSEN}`])
          return /must be changed at the first sign-in/.test(output)
        },
      },
      {
        name: 'reset by node ace user:reset-password',
        async make() {
          await userWithPermissions([P.list], { account: 'handed.out' })
          const output = ace(['user:reset-password', 'handed.out', `--password=${CHOSEN}`])
          return /must be changed at the next sign-in/.test(output)
        },
      },
      {
        name: 'the first administrator of node ace db:seed',
        async make() {
          ace(['db:seed', '--files', 'database/seeders/02_admin_seeder.ts'], {
            ADMIN_ACCOUNT: 'handed.out',
            ADMIN_PASSWORD: CHOSEN,
          })
          // It prints nothing under NODE_ENV=test; what it prints is the seeder's own text.
          return true
        },
      },
    ])
    .run(async ({ client, assert }, row) => {
      assert.isTrue(await row.make(client), 'the caller is told the password must be changed')
      await assertForcedChange(client, assert, 'handed.out')
    })

  test('an expired password: held until changed, then PASSWORD_MAX_AGE_DAYS starts again', async ({
    client,
    assert,
  }) => {
    adminAuthConfig.passwords.maxAgeDays = 30
    const { user } = await userWithPermissions([P.list], { account: 'handed.out' })
    user.passwordChangedAt = DateTime.now().minus({ days: 31 })
    await user.save()
    // Expiry alone holds the account: the flag is not set.
    assert.isFalse((await User.findOrFail(user.id)).mustChangePassword)
    const token = await login(client, 'handed.out', TEST_PASSWORD)
    await assertOnlyTheWayOut(client, assert, token)
    const changed = await client
      .put('/api/auth/password')
      .bearerToken(token)
      .json({ currentPassword: TEST_PASSWORD, newPassword: OWN[0] })
    changed.assertStatus(200)
    const me = await client.get('/api/auth/me').bearerToken(changed.body().data.token)
    assert.isFalse(me.body().data.user.passwordChangeRequired)
    const expiresAt = DateTime.fromISO(me.body().data.user.passwordExpiresAt)
    assert.closeTo(expiresAt.diffNow('days').days, 30, 0.01)
    ;(await client.get('/api/admin/users').bearerToken(changed.body().data.token)).assertStatus(200)
  })

  test('PASSWORD_HISTORY: the last N passwords cannot come back (422 history, nothing written); older ones can', async ({
    client,
    assert,
  }) => {
    adminAuthConfig.passwords.history = 2
    const { user } = await userWithPermissions([P.list], { account: 'handed.out' })
    // An administrator's reset: no history check (it would tell them which passwords the account
    // used: resetting to the current one is allowed), but the chosen password joins the history.
    const reset = await client
      .post(`/api/admin/users/${user.id}/password-reset`)
      .loginAs(await seededAdmin())
      .json({ password: TEST_PASSWORD })
    reset.assertStatus(200)

    let password = TEST_PASSWORD
    const change = async (next: string) => {
      const { tokenVersion } = await User.findOrFail(user.id)
      const { token } = await sessionToken(user.id, tokenVersion)
      const response = await client
        .put('/api/auth/password')
        .bearerToken(token)
        .json({ currentPassword: password, newPassword: next })
      if (response.status() === 200) password = next
      return { response, token }
    }
    const snapshot = async () => ({
      user: (await User.findOrFail(user.id)).$attributes,
      history: await db.from('password_history').where('user_id', user.id).orderBy('id'),
    })
    ;(await change(CHOSEN)).response.assertStatus(200)
    // Remembered now: TEST_PASSWORD (the administrator's) and CHOSEN (the current one).
    const before = await snapshot()
    const { response: refused, token } = await change(TEST_PASSWORD)
    refused.assertStatus(422)
    assert.deepInclude(refused.body().errors[0], {
      code: 'E_VALIDATION_ERROR',
      field: 'newPassword',
      rule: 'history',
    })
    assert.deepEqual(await snapshot(), before)
    ;(await client.get('/api/auth/me').bearerToken(token)).assertStatus(200) // nothing revoked
    // One more change pushes TEST_PASSWORD out of the last 2: it may come back.
    ;(await change(OWN[0])).response.assertStatus(200)
    ;(await change(TEST_PASSWORD)).response.assertStatus(200)
    assert.lengthOf(await db.from('password_history').where('user_id', user.id), 2)
  })
})
