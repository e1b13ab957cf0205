import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import adminAuthConfig from '#config/admin_auth'
import { consume } from '#auth/limits'
import { mfaCeilingKey } from '#auth/login_limiter'
import { settled } from '#services/email/outbox'
import { withRealCommits } from '#tests/helpers/database'
import { TEST_PASSWORD, createAdmin, freshCredential, superAdminUser } from '#tests/helpers/auth'
import { enrolled, totp } from '#tests/helpers/two_factor'
import { sendFrom } from '#tests/helpers/http_from'
import { clearInbox, mailsTo, tokenIn, waitForMail } from '#tests/helpers/smtp'

/**
 * The second step as its owner sees it (docs/front-door.md, "The second step"; issue 50): a right
 * password stopped there mails the owner once a day; the account's second-step ceiling refuses
 * keyless callers only; device tokens: every revocation and the device's race with itself are
 * logged, and the race revokes nothing.
 */
const CAP = adminAuthConfig.limits.loginAccountCap
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Tab/1'

const passwordStep = async (from: string, account: string, extra: Record<string, unknown> = {}) =>
  sendFrom(from, 'POST', '/api/auth/login', {
    body: { account, password: TEST_PASSWORD, captchaToken: await freshCredential(from), ...extra },
    headers: { 'user-agent': BROWSER },
  })

const codeStep = (from: string, body: Record<string, unknown>) =>
  sendFrom(from, 'POST', '/api/auth/login/2fa', { body, headers: { 'user-agent': BROWSER } })

const code = (reply: { body: any }) => reply.body?.errors?.[0]?.code
const outcomes = async (userId: number, outcome: string) =>
  db.from('login_logs').where('user_id', userId).where('outcome', outcome)

async function verifiedAdmin(account: string) {
  const user = await createAdmin(account)
  user.email = `${account}@example.test`
  await user.save()
  // A changed address clears the verification (User model hook): verified afterwards.
  user.emailVerifiedAt = DateTime.now()
  await user.save()
  return user
}

/** A wrong TOTP code for `secret` (any six digits that are none of the three accepted ones). */
function wrongCode(secret: string) {
  const right = new Set([totp(secret, -1), totp(secret), totp(secret, 1)])
  let guess = 123456
  while (right.has(String(guess).padStart(6, '0'))) guess++
  return String(guess).padStart(6, '0')
}

test.group('The second step: notice and ceiling', (group) => {
  withRealCommits(group)
  group.each.setup(async () => {
    await settled()
    clearInbox()
    return () => settled()
  })

  test('a right password stopped at the second step from 3 addresses: one mail; the owner device passes the ceiling, a keyless right code does not', async ({
    assert,
  }) => {
    const user = await verifiedAdmin('stopped')
    const { secret } = await enrolled(user)
    const mailbox = 'stopped@example.test'
    // The owner's browser: signed in once (password + code), so it holds a device token.
    const first = await passwordStep('127.0.0.60', 'stopped')
    const signedIn = await codeStep('127.0.0.60', {
      mfaToken: first.body.data.mfaToken,
      code: totp(secret, -1),
    })
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body))
    const deviceToken = signedIn.body.data.deviceToken as string

    // Someone with the password, from 3 addresses; the ceiling is nearly spent already.
    for (let i = 0; i < CAP - 3; i++) await consume(mfaCeilingKey(user.id))
    const statuses = []
    for (const from of ['127.0.0.61', '127.0.0.62', '127.0.0.63', '127.0.0.61']) {
      const step = await passwordStep(from, 'stopped')
      assert.equal(step.status, 200, JSON.stringify(step.body))
      const reply = await codeStep(from, {
        mfaToken: step.body.data.mfaToken,
        code: wrongCode(secret),
      })
      statuses.push(reply.status)
      if (reply.status === 429) assert.equal(code(reply), 'E_ACCOUNT_LOCKED')
    }
    assert.deepEqual(statuses, [401, 401, 401, 429])

    // One mail for the three failures: the first address, and a working reset link.
    const notice = await waitForMail(mailbox)
    await settled()
    assert.lengthOf(mailsTo(mailbox), 1)
    assert.match(notice.subject, /your password was used/)
    assert.include(notice.text, 'from 127.0.0.61')
    assert.include(notice.text, 'second step')
    assert.isString(tokenIn(notice, 'reset-password'))

    // A keyless caller with the right code is still refused (no code spent)...
    const keyless = await passwordStep('127.0.0.60', 'stopped')
    const refused = await codeStep('127.0.0.60', {
      mfaToken: keyless.body.data.mfaToken,
      code: totp(secret),
    })
    assert.equal(refused.status, 429)
    assert.equal(code(refused), 'E_ACCOUNT_LOCKED')
    // ...the owner's device token with it signs in (and restarts the count).
    const asked = await passwordStep('127.0.0.60', 'stopped', { deviceToken })
    assert.isTrue(asked.body.data.mfaRequired)
    const owner = await codeStep('127.0.0.60', {
      mfaToken: asked.body.data.mfaToken,
      code: totp(secret),
      deviceToken,
    })
    assert.equal(owner.status, 200, JSON.stringify(owner.body))

    // A later failure within the day mails nothing more.
    const again = await passwordStep('127.0.0.64', 'stopped')
    const wrong = await codeStep('127.0.0.64', {
      mfaToken: again.body.data.mfaToken,
      code: wrongCode(secret),
    })
    assert.equal(wrong.status, 401)
    await settled()
    assert.lengthOf(mailsTo(mailbox), 1)
  })

  test('an unverified address gets no notice', async ({ assert }) => {
    const user = await createAdmin('unverified2fa')
    user.email = 'unverified2fa@example.test'
    await user.save()
    const { secret } = await enrolled(user)
    const step = await passwordStep('127.0.0.65', 'unverified2fa')
    const reply = await codeStep('127.0.0.65', {
      mfaToken: step.body.data.mfaToken,
      code: wrongCode(secret),
    })
    assert.equal(reply.status, 401)
    await settled()
    assert.lengthOf(mailsTo('unverified2fa@example.test'), 0)
  })
})

test.group('Device tokens: revocations and the race', (group) => {
  withRealCommits(group)

  test('two tabs signing in with one token at once: both in, nothing revoked, the race logged', async ({
    assert,
  }) => {
    const user = await createAdmin('twotabs')
    const first = await passwordStep('127.0.0.70', 'twotabs')
    assert.equal(first.status, 200)
    const token = first.body.data.deviceToken as string

    // At once: both find the token current; one rotates it, the other gets a device of its own.
    const tabs = await Promise.all([
      passwordStep('127.0.0.70', 'twotabs', { deviceToken: token }),
      passwordStep('127.0.0.70', 'twotabs', { deviceToken: token }),
    ])
    assert.deepEqual(
      tabs.map((tab) => tab.status),
      [200, 200],
      JSON.stringify(tabs.map((tab) => tab.body))
    )
    // After: the superseded token again, from the same browser within the grace: no owner's key.
    const late = await passwordStep('127.0.0.70', 'twotabs', { deviceToken: token })
    assert.equal(late.status, 200, JSON.stringify(late.body))
    const sessions = await db.from('admin_sessions').where('user_id', user.id)
    assert.lengthOf(sessions, 4)
    assert.isTrue(sessions.every((session) => session.ended_at === null))
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 3)
    const raced = await outcomes(user.id, 'device_token_raced')
    assert.equal(
      raced.reduce((sum, row) => sum + Number(row.count), 0),
      2
    )
    assert.lengthOf(await outcomes(user.id, 'device_token_reused'), 0)

    // The same superseded token from another address is a copy: every device revoked, logged.
    const copy = await passwordStep('127.0.0.71', 'twotabs', { deviceToken: token })
    assert.equal(copy.status, 401)
    assert.equal(code(copy), 'E_DEVICE_TOKEN_REUSED')
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 0)
    const [reused] = await outcomes(user.id, 'device_token_reused')
    assert.equal(reused.ip, '127.0.0.71')
  })

  test('logout forgetting the device, DELETE, password change and disabling each write their row', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('revoker')
    const signIn = async () => (await passwordStep('127.0.0.72', 'revoker')).body.data
    const one = await signIn()
    ;(
      await client.post('/api/auth/logout').bearerToken(one.token).json({ forgetDevice: true })
    ).assertStatus(204)
    await signIn()
    const three = await signIn()
    const devices = await client.get('/api/auth/devices').bearerToken(three.token)
    const other = devices.body().data.find((device: any) => !device.current)
    ;(await client.delete(`/api/auth/devices/${other.id}`).bearerToken(three.token)).assertStatus(
      204
    )
    const single = await outcomes(user.id, 'device_revoked')
    assert.equal(
      single.reduce((sum, row) => sum + Number(row.count), 0),
      2
    )

    const changed = await client
      .put('/api/auth/password')
      .bearerToken(three.token)
      .json({ currentPassword: TEST_PASSWORD, newPassword: 'Another-Horse-Battery-77' })
    changed.assertStatus(200)
    const [all] = await outcomes(user.id, 'devices_revoked')
    assert.equal(all.account, 'revoker')
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 0)

    // An administrator disabling an account with a device: one row too, from the admin's address.
    const boss = await superAdminUser()
    const target = await createAdmin('disabled.device')
    assert.equal((await passwordStep('127.0.0.73', 'disabled.device')).status, 200)
    ;(
      await client.put(`/api/admin/users/${target.id}`).json({ status: 'disabled' }).loginAs(boss)
    ).assertStatus(200)
    const [disabled] = await outcomes(target.id, 'devices_revoked')
    assert.equal(disabled.account, 'disabled.device')
    assert.lengthOf(await db.from('device_tokens').where('user_id', target.id), 0)
  })
})
