import { test } from '@japa/runner'
import hash from '@adonisjs/core/services/hash'
import User from '#models/user'
import type { ApiClient } from '@japa/api-client'
import { reserveAttempt, settleFailure } from '#auth/limits'
import { accountKey } from '#auth/login_limiter'
import { withRealCommits } from '#tests/helpers/database'
import {
  TEST_PASSWORD,
  createAdmin,
  loginWith,
  sessionToken,
  superAdminUser,
} from '#tests/helpers/auth'
import { runAce } from '#tests/helpers/app_process'

const NEW_PASSWORD = 'A-Brand-New-Passphrase-7'

const COMMON = /common or breached/
const GUESSABLE = /too easy to guess/
/** Issue "The front door": each is refused by every path that sets a password, saying why. */
const REFUSED_PASSWORDS: [string, RegExp][] = [
  ['P@ssword1', COMMON],
  ['admin123456', COMMON],
  ['Password2026!', COMMON],
  ['abcd1234', COMMON],
  ['Welcome123!', COMMON],
  ['Qwerty123!', COMMON],
  ['Admin@2026', COMMON],
  ['12341234', GUESSABLE],
  ['iloveyou1', COMMON],
  ['ruoyi123', GUESSABLE],
]

/** The password change goes through the limiter, whose store has its own connection: real commits. */
test.group('Password change and reset', (group) => {
  withRealCommits(group)

  test('changing the own password kills every older token and returns a fresh one', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('changer')
    const { token: older } = await sessionToken(user.id, 0)
    const { token: current } = await sessionToken(user.id, 0)

    const response = await client
      .put('/api/auth/password')
      .bearerToken(current)
      .json({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD })
    response.assertStatus(200)
    const fresh = response.body().data.token
    assert.isString(fresh)

    await user.refresh()
    assert.equal(user.tokenVersion, 1)
    assert.isTrue(await hash.verify(user.password, NEW_PASSWORD))

    ;(await client.get('/api/auth/me').bearerToken(older)).assertStatus(401)
    ;(await client.get('/api/auth/me').bearerToken(current)).assertStatus(401)
    ;(await client.get('/api/auth/me').bearerToken(fresh)).assertStatus(200)

    const login = await loginWith(client, 'changer', NEW_PASSWORD)
    login.assertStatus(200)
  })

  test('{name} -> 422 and nothing changes')
    .with([
      {
        name: 'wrong current password',
        body: { currentPassword: 'Not-My-Password-1', newPassword: NEW_PASSWORD },
        field: 'currentPassword',
      },
      {
        name: 'too short',
        body: { currentPassword: TEST_PASSWORD, newPassword: 'Ab1-x' },
        field: 'newPassword',
      },
      {
        name: 'too long',
        body: { currentPassword: TEST_PASSWORD, newPassword: 'x'.repeat(129) },
        field: 'newPassword',
      },
      {
        name: 'the account name',
        body: { currentPassword: TEST_PASSWORD, newPassword: 'Changer.Account' },
        field: 'newPassword',
        account: 'changer.account',
      },
      {
        name: 'a common password',
        body: { currentPassword: TEST_PASSWORD, newPassword: 'password123' },
        field: 'newPassword',
      },
      {
        name: 'containing the account name',
        body: { currentPassword: TEST_PASSWORD, newPassword: 'Violet-CHANGER-Harbor-7' },
        field: 'newPassword',
      },
      {
        name: 'unchanged',
        body: { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD },
        field: 'newPassword',
      },
      { name: 'missing fields', body: {}, field: 'currentPassword' },
    ])
    .run(async ({ client, assert }, row) => {
      const user = await createAdmin(row.account ?? 'changer')
      const before = user.password
      const response = await client.put('/api/auth/password').loginAs(user).json(row.body)
      response.assertStatus(422)
      assert.include(
        response.body().errors.map((e: { field: string }) => e.field),
        row.field
      )
      await user.refresh()
      assert.equal(user.tokenVersion, 0)
      assert.equal(user.password, before)
    })

  test('refused new password {0} -> 422 on newPassword, saying why; nothing changes')
    .with(REFUSED_PASSWORDS)
    .run(async ({ client, assert }, [password, why]) => {
      const user = await createAdmin('changer')
      const before = user.password
      const response = await client
        .put('/api/auth/password')
        .loginAs(user)
        .json({ currentPassword: TEST_PASSWORD, newPassword: password })
      response.assertStatus(422)
      const errors = response.body().errors
      assert.lengthOf(errors, 1)
      assert.equal(errors[0].code, 'E_VALIDATION_ERROR')
      assert.equal(errors[0].field, 'newPassword')
      assert.match(errors[0].message, why)
      await user.refresh()
      assert.equal(user.tokenVersion, 0)
      assert.equal(user.password, before)
    })

  test('an administrator cannot create an account with a refused password either', async ({
    client,
    assert,
  }) => {
    const admin = await superAdminUser()
    for (const [password, why] of REFUSED_PASSWORDS.slice(0, 3)) {
      const response = await client
        .post('/api/admin/users')
        .loginAs(admin)
        .json({ account: 'newcomer', password })
      response.assertStatus(422)
      assert.equal(response.body().errors[0].field, 'password')
      assert.match(response.body().errors[0].message, why)
    }
    const named = await client
      .post('/api/admin/users')
      .loginAs(admin)
      .json({ account: 'newcomer', password: 'Newcomer-Harbor-Quartz-7' })
    named.assertStatus(422)
    assert.match(named.body().errors[0].message, /account name/)
    assert.isNull(await User.findBy('account', 'newcomer'))
  })

  test('password change needs a valid token', async ({ client }) => {
    const response = await client
      .put('/api/auth/password')
      .json({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD })
    response.assertStatus(401)
  })
})

/** The ace command is another process: it must see committed rows. */
test.group('Password reset: node ace user:reset-password', (group) => {
  withRealCommits(group)

  test('node ace user:reset-password revokes every token of the account', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('resettable')
    const { token } = await sessionToken(user.id, 0)
    ;(await client.get('/api/auth/me').bearerToken(token)).assertStatus(200)

    const run = runAce(['user:reset-password', 'resettable', `--password=${NEW_PASSWORD}`])
    assert.equal(run.status, 0, run.output)
    assert.notInclude(run.stdout, NEW_PASSWORD, 'a given password is not echoed')

    await user.refresh()
    assert.equal(user.tokenVersion, 1)
    ;(await client.get('/api/auth/me').bearerToken(token)).assertStatus(401)
    const login = await loginWith(client, 'resettable', NEW_PASSWORD)
    login.assertStatus(200)
    ;(await client.get('/api/auth/me').bearerToken(login.body().data.token)).assertStatus(200)
  })

  test('node ace user:create and user:reset-password refuse a common password', async ({
    assert,
  }) => {
    const user = await createAdmin('resettable')
    const ace = (...args: string[]) => runAce(args)
    const created = ace('user:create', 'newcomer', '--password=Admin@2026')
    assert.equal(created.status, 1, created.output)
    assert.match(created.output, /common or breached/)
    assert.isNull(await User.findBy('account', 'newcomer'))

    const reset = ace('user:reset-password', 'resettable', '--password=Welcome123!')
    assert.equal(reset.status, 1, reset.output)
    assert.match(reset.output, /common or breached/)
    const stored = await User.findByOrFail('account', 'resettable')
    assert.equal(stored.password, user.password)
    assert.equal(stored.tokenVersion, 0)
  })

  test('node ace user:reset-password --generate prints a policy-compliant password once', async ({
    assert,
  }) => {
    await createAdmin('resettable')
    const run = runAce(['user:reset-password', 'resettable', '--generate'])
    assert.equal(run.status, 0, run.output)
    const printed = /New password \(shown once\): (\S+)/.exec(run.stdout)?.[1]
    assert.isString(printed)
    const user = await User.findByOrFail('account', 'resettable')
    assert.isTrue(await hash.verify(user.password, printed!))
    assert.equal(user.tokenVersion, 1)

    assert.notEqual(runAce(['user:reset-password', 'nobody', '--generate']).status, 0)
  })
})

/**
 * The current-password check of a change counts per session (the JWT's session id), not against
 * the account's anonymous login counter. The limiter's store has its own connection: real commits.
 */
test.group('Password change: limited per session, not by anonymous login failures', (group) => {
  withRealCommits(group)

  const PER_SESSION = 5

  /** Uses every allowance of the account's anonymous login counter, as failed logins would. */
  async function blockAccountKey(account: string) {
    for (let i = 0; i < PER_SESSION; i++) {
      await settleFailure(await reserveAttempt([accountKey(account)]))
    }
  }

  const change = (client: ApiClient, token: string, currentPassword: string) =>
    client
      .put('/api/auth/password')
      .bearerToken(token)
      .json({ currentPassword, newPassword: NEW_PASSWORD })

  test('with the account blocked by anonymous failed logins, the owner still changes it', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('owner')
    const { token } = await sessionToken(user.id, 0)
    await blockAccountKey('owner')
    const login = await loginWith(client, 'owner')
    login.assertStatus(429)

    const response = await change(client, token, TEST_PASSWORD)
    response.assertStatus(200)
    await user.refresh()
    assert.isTrue(await hash.verify(user.password, NEW_PASSWORD))
    assert.equal(user.tokenVersion, 1)
  })

  test('5 wrong current passwords block that session only; another session still changes it', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('owner')
    const { token: guessing } = await sessionToken(user.id, 0)
    const { token: other } = await sessionToken(user.id, 0)
    const before = user.password

    for (let i = 0; i < PER_SESSION; i++) {
      const reply = await change(client, guessing, 'Wrong-Guess-Harbor-1')
      reply.assertStatus(422)
      assert.equal(reply.body().errors[0].field, 'currentPassword')
      assert.equal(reply.header('ratelimit-remaining'), String(PER_SESSION - 1 - i))
    }
    // Blocked: even the right password is refused on this session, before any hash.
    const blocked = await change(client, guessing, TEST_PASSWORD)
    blocked.assertStatus(429)
    assert.isAbove(Number(blocked.header('retry-after')), 0)
    await user.refresh()
    assert.equal(user.password, before)
    assert.equal(user.tokenVersion, 0)

    // The session's failures count nothing against the account's login counter.
    const login = await loginWith(client, 'owner')
    login.assertStatus(200)

    const response = await change(client, other, TEST_PASSWORD)
    response.assertStatus(200)
    await user.refresh()
    assert.isTrue(await hash.verify(user.password, NEW_PASSWORD))
  })
})
