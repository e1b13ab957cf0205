import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import { PERMISSIONS } from '#auth/permissions'
import { blocksToday } from '#auth/limits'
import { accountKey } from '#auth/login_limiter'
import { withRealCommits } from '#tests/helpers/database'
import { type Reply, sendFrom } from '#tests/helpers/http_from'
import { startAppProcess, runAce } from '#tests/helpers/app_process'
import { assertRateLimitHeaders } from '#tests/helpers/rate_limit'
import {
  TEST_PASSWORD,
  createAdmin,
  freshCredential,
  superAdminUser,
  userWithPermissions,
} from '#tests/helpers/auth'

/**
 * Login defences from the attacker's side (docs/architecture.md, "Login defences"): limits that are atomic, and
 * that an attacker who only knows the account name cannot turn against its owner.
 */
const PER_ACCOUNT = 5
const WRONG = 'Wrong-Guess-123'

/** A 429 with Retry-After and the RateLimit-* headers. */
function assertBlocked(assert: Assert, reply: Reply) {
  assert.equal(reply.status, 429, JSON.stringify(reply.body))
  assertRateLimitHeaders(assert, reply.headers)
}

/** A JSON request to the test server from a chosen loopback address (the socket's, not a header). */
const send = (
  from: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
) => sendFrom(from, method, path, { body, headers })

const login = async (from: string, account: string, password: string, extra = {}) =>
  send(from, 'POST', '/api/auth/login', {
    account,
    password,
    captchaToken: await freshCredential(from),
    ...extra,
  })

test.group('Login defences', (group) => {
  withRealCommits(group)

  test('15 concurrent wrong passwords: at most N verified, one block of the first length', async ({
    assert,
  }) => {
    await createAdmin('target')
    const replies = await Promise.all(
      Array.from({ length: 15 }, () => login('127.0.0.1', 'target', WRONG))
    )
    const statuses = replies.map((reply) => reply.status)
    // A 401 is a verified password; a 429 was refused before any hash.
    assert.equal(statuses.filter((status) => status === 401).length, PER_ACCOUNT, String(statuses))
    assert.equal(statuses.filter((status) => status === 429).length, 15 - PER_ACCOUNT)
    const blocked = await login('127.0.0.1', 'target', TEST_PASSWORD)
    assert.equal(blocked.status, 429)
    assertRateLimitHeaders(assert, blocked.headers)
    const retryAfter = Number(blocked.headers['retry-after'])
    assert.isAtMost(retryAfter, 15 * 60, 'the first block, not a 24 h one')
    assert.isAbove(retryAfter, 60)
    assert.equal(await blocksToday(accountKey('target')), 1, 'the block history grew once')
  })

  test("an attacker's burst from one address does not lock out the owner's known device", async ({
    assert,
  }) => {
    await createAdmin('owner')
    // Earlier, the owner logged in from their device and kept the device token.
    const first = await login('127.0.0.3', 'owner', TEST_PASSWORD)
    assert.equal(first.status, 200)
    assert.equal(first.headers['ratelimit-limit'], String(PER_ACCOUNT))
    const deviceToken = first.body.data.deviceToken

    for (let i = 0; i < PER_ACCOUNT + 2; i++) await login('127.0.0.2', 'owner', WRONG)
    assertBlocked(assert, await login('127.0.0.2', 'owner', TEST_PASSWORD))

    // Without the device token the owner is blocked too (the account's anonymous counter) ...
    assertBlocked(assert, await login('127.0.0.3', 'owner', TEST_PASSWORD))
    // ... with it, the owner logs in, and gets the token's successor (it rotates at each use).
    const owner = await login('127.0.0.3', 'owner', TEST_PASSWORD, { deviceToken })
    assert.equal(owner.status, 200, JSON.stringify(owner.body))
    assert.notEqual(owner.body.data.deviceToken, deviceToken)
    // A stolen-looking token for another account counts nothing: still anonymous, still 429.
    await createAdmin('other')
    const other = await login('127.0.0.4', 'other', WRONG, { deviceToken })
    assert.equal(other.status, 401)
  })

  test('device tokens end with a password reset and with a disabled account', async ({
    assert,
  }) => {
    const user = await createAdmin('owner')
    const issued = await login('127.0.0.3', 'owner', TEST_PASSWORD)
    assert.equal(issued.status, 200)
    await db.from('device_tokens').where('user_id', user.id).firstOrFail()
    const admin = await superAdminUser()
    const adminLogin = await login('127.0.0.1', admin.account, TEST_PASSWORD)
    const reset = await send(
      '127.0.0.1',
      'POST',
      `/api/admin/users/${user.id}/password-reset`,
      { password: 'Brand-new-passphrase-2' },
      { authorization: `Bearer ${adminLogin.body.data.token}` }
    )
    assert.equal(reset.status, 200)
    assert.isNull(await db.from('device_tokens').where('user_id', user.id).first())

    assert.equal((await login('127.0.0.3', 'owner', 'Brand-new-passphrase-2')).status, 200)
    await db.from('device_tokens').where('user_id', user.id).firstOrFail()
    const disabled = await send(
      '127.0.0.1',
      'PUT',
      `/api/admin/users/${user.id}`,
      { status: 'disabled' },
      { authorization: `Bearer ${adminLogin.body.data.token}` }
    )
    assert.equal(disabled.status, 200)
    assert.isNull(await db.from('device_tokens').where('user_id', user.id).first())
  })

  test('unlock by endpoint (with its permission only), by command and by password reset', async ({
    assert,
  }) => {
    const user = await createAdmin('locked')
    const block = async () => {
      for (let i = 0; i < PER_ACCOUNT; i++) await login('127.0.0.2', 'locked', WRONG)
      assertBlocked(assert, await login('127.0.0.2', 'locked', TEST_PASSWORD))
    }
    const { user: helpdesk } = await userWithPermissions([
      PERMISSIONS.user.unlock,
      PERMISSIONS.user.list,
    ])
    const { user: stranger } = await userWithPermissions([PERMISSIONS.user.list])
    /** A request of `account`, logged in from 127.0.0.1 (the blocks are on 127.0.0.2). */
    const as = async (account: User, method: string, path: string, body?: object) => {
      const { token } = (await login('127.0.0.1', account.account, TEST_PASSWORD)).body.data
      return send('127.0.0.1', method, path, body, { authorization: `Bearer ${token}` })
    }

    await block()
    const listed = await as(helpdesk, 'GET', `/api/admin/users/${user.id}`)
    assert.isString(listed.body.data.lockedUntil)
    const refused = await as(stranger, 'POST', `/api/admin/users/${user.id}/unlock`)
    assert.equal(refused.status, 403)
    assertBlocked(assert, await login('127.0.0.2', 'locked', TEST_PASSWORD))
    const unlocked = await as(helpdesk, 'POST', `/api/admin/users/${user.id}/unlock`)
    assert.equal(unlocked.status, 200)
    assert.isNull(unlocked.body.data.lockedUntil)
    assert.equal((await login('127.0.0.2', 'locked', TEST_PASSWORD)).status, 200)

    await block()
    const run = runAce(['user:unlock', 'locked'])
    assert.equal(run.status, 0, run.output)
    // Another process unlocked: this one forgets the block it remembered within two seconds.
    await new Promise((resolve) => setTimeout(resolve, 2100))
    assert.equal((await login('127.0.0.2', 'locked', TEST_PASSWORD)).status, 200)

    await block()
    const admin = await superAdminUser()
    const reset = await as(admin, 'POST', `/api/admin/users/${user.id}/password-reset`, {
      password: 'Brand-new-passphrase-2',
    })
    assert.equal(reset.status, 200)
    assert.equal((await login('127.0.0.2', 'locked', 'Brand-new-passphrase-2')).status, 200)
  })

  test('password change: the (N+1)th wrong current password is a 429; changes run one at a time', async ({
    assert,
  }) => {
    await createAdmin('changer')
    const token = (await login('127.0.0.1', 'changer', TEST_PASSWORD)).body.data.token
    const change = (currentPassword: string, newPassword: string) =>
      send(
        '127.0.0.1',
        'PUT',
        '/api/auth/password',
        { currentPassword, newPassword },
        { authorization: `Bearer ${token}` }
      )

    // Two concurrent right changes: one wins; the other waited, then found its token revoked.
    const both = await Promise.all([
      change(TEST_PASSWORD, 'First-new-passphrase-1'),
      change(TEST_PASSWORD, 'Second-new-passphrase-2'),
    ])
    assert.sameMembers(
      both.map((reply) => reply.status),
      [200, 401]
    )
    const fresh = both.find((reply) => reply.status === 200)!.body.data.token
    const guess = (currentPassword: string) =>
      send(
        '127.0.0.1',
        'PUT',
        '/api/auth/password',
        { currentPassword, newPassword: 'Another-passphrase-3' },
        { authorization: `Bearer ${fresh}` }
      )
    for (let i = 0; i < PER_ACCOUNT; i++) {
      const reply = await guess(WRONG)
      assert.equal(reply.status, 422)
      assert.equal(reply.headers['ratelimit-remaining'], String(PER_ACCOUNT - 1 - i))
    }
    assertBlocked(assert, await guess(WRONG))
  })
})

test.group('Trusted proxies', (group) => {
  withRealCommits(group)

  const fetchCaptchas = async (assert: Assert, url: string, forwardedFor: string[]) => {
    const statuses: number[] = []
    for (const address of forwardedFor) {
      const response = await fetch(`${url}/api/auth/captcha`, {
        headers: { 'x-forwarded-for': address },
      })
      statuses.push(response.status)
      if (response.status === 429) {
        assertRateLimitHeaders(assert, Object.fromEntries(response.headers), 3)
      }
    }
    return statuses
  }

  test('X-Forwarded-For from an unlisted peer changes no key; from a listed proxy it does', async ({
    assert,
  }) => {
    const limited = { LIMIT_CAPTCHA_PER_MINUTE: '3' }
    const direct = await startAppProcess(limited)
    try {
      const statuses = await fetchCaptchas(assert, direct.url, [
        '10.0.0.1',
        '10.0.0.2',
        '10.0.0.3',
        '10.0.0.4',
      ])
      assert.deepEqual(statuses, [200, 200, 200, 429], 'one key: the socket address')
    } finally {
      await direct.stop()
    }
    const proxied = await startAppProcess({ ...limited, TRUSTED_PROXIES: '127.0.0.1/8' })
    try {
      const spread = await fetchCaptchas(assert, proxied.url, [
        '10.0.1.1',
        '10.0.1.2',
        '10.0.1.3',
        '10.0.1.4',
      ])
      assert.deepEqual(spread, [200, 200, 200, 200], 'one key per forwarded client')
      const same = await fetchCaptchas(assert, proxied.url, [
        '10.0.2.1',
        '10.0.2.1',
        '10.0.2.1',
        '10.0.2.1',
      ])
      assert.deepEqual(same, [200, 200, 200, 429])
    } finally {
      await proxied.stop()
    }
  })

  test('a TRUSTED_PROXIES entry that does not parse stops the boot', async ({ assert }) => {
    const error = await startAppProcess({ TRUSTED_PROXIES: '10.0.0.0/99' }).then(
      async (instance) => {
        await instance.stop()
        return null
      },
      (failure: Error) => failure
    )
    assert.instanceOf(error, Error)
    assert.include(error!.message, 'TRUSTED_PROXIES')
  })
})
