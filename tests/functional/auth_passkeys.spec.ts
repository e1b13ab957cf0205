import { test } from '@japa/runner'
import { runAce } from '#tests/helpers/app_process'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient, ApiResponse } from '@japa/api-client'
import type User from '#models/user'
import adminAuthConfig from '#config/admin_auth'
import { consume } from '#auth/limits'
import { ceilingKey, mfaCeilingKey } from '#auth/login_limiter'
import { withRealCommits } from '#tests/helpers/database'
import {
  TEST_PASSWORD,
  createAdmin,
  freshCredential,
  sessionToken,
  superAdminUser,
  userWithPermissions,
} from '#tests/helpers/auth'
import { assertForbidden, assertValidationError } from '#tests/helpers/assertions'
import { enrolled, passwordStep, requiring2fa, totp } from '#tests/helpers/two_factor'
import { SoftAuthenticator, type Overrides } from '#tests/helpers/passkey_authenticator'

/**
 * Passkeys (app/auth/passkeys.ts; docs/front-door.md, "Passkeys") against a software
 * authenticator (tests/helpers/passkey_authenticator.ts): registration, the second login step,
 * the way through the ceiling, removal and resets. Every refusal is a 4xx that stores nothing.
 */

const WRONG = 'Wrong-Guess-123'
const errorCode = (response: ApiResponse) => response.body().errors?.[0]?.code
const rowsOf = async (userId: number) => db.from('passkeys').where('user_id', userId).orderBy('id')
const passkeyCount = async (userId: number) =>
  Number((await db.from('users').where('id', userId).first()).passkey_count)
/** The account's login log as [outcome, count] (refusals are one row per key per minute). */
const logged = async (userId: number) =>
  (await db.from('login_logs').where('user_id', userId).orderBy('id')).map((row) => [
    row.outcome,
    Number(row.count),
  ])
const assertPasskeyInvalid = (assert: any, response: ApiResponse, key = 'passkey response') => {
  assert.equal(response.status(), 400, JSON.stringify(response.body()))
  assert.equal(errorCode(response), 'E_PASSKEY_INVALID')
  assert.include(response.body().errors[0].message.toLowerCase(), key)
}

/** A session of the account (a registration challenge is bound to it). */
const sessionOf = async (user: User) => (await sessionToken(user.id, user.tokenVersion)).token

const registrationOptions = async (client: ApiClient, token: string, password = TEST_PASSWORD) =>
  client.post('/api/auth/passkeys/options').bearerToken(token).json({ password })

const register = (client: ApiClient, token: string, body: Record<string, unknown>) =>
  client.post('/api/auth/passkeys').bearerToken(token).json(body)

/** Registers a passkey of `authenticator` for the account (options, then the response). */
async function enrol(
  client: ApiClient,
  user: User,
  name = 'Laptop',
  authenticator = new SoftAuthenticator()
) {
  const token = await sessionOf(user)
  const options = (await registrationOptions(client, token)).body().data
  const response = await register(client, token, {
    name,
    response: authenticator.register(options),
  })
  response.assertStatus(201)
  return { authenticator, id: response.body().data.id as number, token }
}

/** The mfaToken of a right password (the account has a second factor). */
async function mfaToken(client: ApiClient, user: User) {
  const response = await passwordStep(client, user)
  response.assertStatus(200)
  return response.body().data.mfaToken as string
}

const loginOptions = (client: ApiClient, body: Record<string, unknown>) =>
  client.post('/api/auth/login/passkey/options').json(body)

const passkeyStep = (client: ApiClient, body: Record<string, unknown>) =>
  client.post('/api/auth/login/passkey').json(body)

/** The second step with a passkey: options for the mfaToken, then the assertion. */
async function secondStepWith(
  client: ApiClient,
  token: string,
  authenticator: SoftAuthenticator,
  overrides: Overrides = {}
) {
  const options = await loginOptions(client, { mfaToken: token })
  options.assertStatus(200)
  const response = authenticator.assert(options.body().data, overrides)
  return passkeyStep(client, { mfaToken: token, response })
}

test.group('Passkeys: registration', (group) => {
  withRealCommits(group)

  test('password first; options bound to the session; several per account, listed; audited', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('keyholder')
    const token = await sessionOf(user)
    assertValidationError(assert, await registrationOptions(client, token, WRONG), ['password'])
    assert.lengthOf(await db.from('passkey_challenges'), 0)

    const first = await registrationOptions(client, token)
    first.assertStatus(200)
    const options = first.body().data
    const { rpId, rpName } = adminAuthConfig.passkeys
    assert.deepEqual(options.rp, { id: rpId, name: rpName })
    assert.equal(options.user.name, 'keyholder')
    assert.equal(options.attestation, 'none')
    assert.deepInclude(options.authenticatorSelection, {
      residentKey: 'required',
      userVerification: 'required',
    })
    assert.deepEqual(options.excludeCredentials, [])
    assert.equal(options.timeout, 300_000)
    const [stored] = await db.from('passkey_challenges')
    assert.equal(stored.challenge, options.challenge)
    assert.equal(stored.purpose, 'register')

    const laptop = new SoftAuthenticator()
    const created = await register(client, token, {
      name: ' Laptop ',
      response: laptop.register(options),
    })
    created.assertStatus(201)
    assert.deepEqual(Object.keys(created.body().data).sort(), ['createdAt', 'id', 'name'])
    assert.equal(created.body().data.name, 'Laptop')
    const [row] = await rowsOf(user.id)
    assert.equal(row.credential_id, laptop.id)
    assert.equal(Number(row.counter), 0)
    assert.deepEqual(JSON.parse(row.transports), ['internal'])
    assert.isNull(row.last_used_at)
    assert.equal(await passkeyCount(user.id), 1)
    assert.lengthOf(await db.from('passkey_challenges'), 0, 'spent')

    // The same response again: its challenge is spent.
    const replay = await register(client, token, {
      name: 'Again',
      response: laptop.register(options),
    })
    assertPasskeyInvalid(assert, replay)
    assert.lengthOf(await rowsOf(user.id), 1)

    // Options asked by one session are not answered through another.
    const second = (await registrationOptions(client, token)).body().data
    assert.deepEqual(
      second.excludeCredentials.map((credential: any) => credential.id),
      [laptop.id]
    )
    const phone = new SoftAuthenticator()
    const elsewhere = await register(client, await sessionOf(user), {
      name: 'Phone',
      response: phone.register(second),
    })
    assertPasskeyInvalid(assert, elsewhere)
    assert.lengthOf(await rowsOf(user.id), 1)

    // A second passkey; the first one again is a 409.
    await enrol(client, user, 'Phone', phone)
    const again = (await registrationOptions(client, token)).body().data
    const duplicate = await register(client, token, {
      name: 'Laptop 2',
      response: laptop.register(again),
    })
    assert.equal(duplicate.status(), 409)
    assert.equal(errorCode(duplicate), 'E_CONFLICT')
    assert.equal(await passkeyCount(user.id), 2)

    const list = await client.get('/api/auth/passkeys').bearerToken(token)
    list.assertStatus(200)
    assert.deepEqual(
      list.body().data.map((passkey: any) => [passkey.name, passkey.lastUsedAt]),
      [
        ['Laptop', null],
        ['Phone', null],
      ]
    )
    assert.deepEqual(Object.keys(list.body().data[0]).sort(), [
      'createdAt',
      'id',
      'lastUsedAt',
      'name',
    ])
    // Another account sees only its own.
    const other = await createAdmin('other')
    const theirs = await client.get('/api/auth/passkeys').bearerToken(await sessionOf(other))
    assert.deepEqual(theirs.body().data, [])

    const audited = await db.from('audit_logs').where('actor_id', user.id).orderBy('id')
    assert.deepEqual(
      audited.map((entry) => [entry.permission, entry.target_type, JSON.parse(entry.changes).name]),
      [
        ['auth:passkey:create', 'passkey', [null, 'Laptop']],
        ['auth:passkey:create', 'passkey', [null, 'Phone']],
      ]
    )
  })

  test('refused responses: {name} -> {status}, nothing stored')
    .with([
      { name: 'another origin', status: 400, overrides: { origin: 'https://evil.example' } },
      { name: 'another RP ID', status: 400, overrides: { rpId: 'evil.example' } },
      { name: 'no user verification', status: 400, overrides: { uv: false } },
      {
        name: 'another challenge',
        status: 400,
        overrides: { challenge: 'AAAAAAAAAAAAAAAAAAAAAA' },
      },
      { name: 'an assertion type', status: 400, overrides: { type: 'webauthn.get' } },
      { name: 'attestation bytes that are not CBOR', status: 400, edit: 'garbage' },
      { name: 'no attestationObject', status: 422, edit: 'missing' },
      { name: 'an id that is not base64url', status: 422, edit: 'id' },
      { name: 'a type other than public-key', status: 422, edit: 'type' },
      { name: 'no name', status: 422, edit: 'name' },
    ] as { name: string; status: number; overrides?: Overrides; edit?: string }[])
    .run(async ({ client, assert }, row) => {
      const user = await createAdmin('refused')
      const token = await sessionOf(user)
      const options = (await registrationOptions(client, token)).body().data
      const response: any = new SoftAuthenticator().register(options, row.overrides)
      const body: Record<string, unknown> = { name: 'Key', response }
      if (row.edit === 'garbage') response.response.attestationObject = 'bm90LWNib3I'
      if (row.edit === 'missing') delete response.response.attestationObject
      if (row.edit === 'id') response.id = 'not base64url!'
      if (row.edit === 'type') response.type = 'password'
      if (row.edit === 'name') delete body.name
      const answer = await register(client, token, body)
      assert.equal(answer.status(), row.status, JSON.stringify(answer.body()))
      assert.equal(
        errorCode(answer),
        row.status === 400 ? 'E_PASSKEY_INVALID' : 'E_VALIDATION_ERROR'
      )
      assert.lengthOf(await rowsOf(user.id), 0)
      assert.equal(await passkeyCount(user.id), 0)
      assert.lengthOf(await db.from('audit_logs').where('actor_id', user.id), 0)
    })

  test('AUTH_REQUIRE_2FA is met by a passkey: registering settles E_2FA_SETUP_REQUIRED', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('required')
    const token = await sessionOf(user)
    await requiring2fa('all', async () => {
      const blocked = await client.get('/api/auth/tokens').bearerToken(token)
      assert.equal(errorCode(blocked), 'E_2FA_SETUP_REQUIRED')
      await enrol(client, user)
      ;(await client.get('/api/auth/tokens').bearerToken(token)).assertStatus(200)
      const me = await client.get('/api/auth/me').bearerToken(token)
      assert.isNull(me.body().data.pendingRequirement)
      assert.isFalse(me.body().data.user.twoFactorEnabled, 'TOTP stays off')
    })
  })
})

test.group('Passkeys: the second login step', (group) => {
  withRealCommits(group)

  test('login names the methods; options for the mfaToken; the passkey signs in', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('passkeyed')
    const { authenticator, id } = await enrol(client, user)
    const first = await passwordStep(client, user)
    first.assertStatus(200)
    assert.deepEqual(Object.keys(first.body().data).sort(), [
      'expiresIn',
      'methods',
      'mfaRequired',
      'mfaToken',
    ])
    assert.deepEqual(first.body().data.methods, ['passkey'])
    const token = first.body().data.mfaToken

    const options = await loginOptions(client, { mfaToken: token })
    options.assertStatus(200)
    const data = options.body().data
    assert.equal(data.rpId, adminAuthConfig.passkeys.rpId)
    assert.equal(data.userVerification, 'required')
    assert.deepEqual(
      data.allowCredentials.map((credential: any) => [credential.id, credential.type]),
      [[authenticator.id, 'public-key']]
    )
    const done = await passkeyStep(client, {
      mfaToken: token,
      response: authenticator.assert(data),
    })
    done.assertStatus(200)
    assert.match(done.body().data.deviceToken, /^[\w-]{43}$/)
    ;(await client.get('/api/auth/me').bearerToken(done.body().data.token)).assertStatus(200)
    const [row] = await rowsOf(user.id)
    assert.equal(Number(row.counter), 1)
    assert.isAbove(Number(row.last_used_at), Date.now() - 60_000)
    const listed = await client.get('/api/auth/passkeys').bearerToken(done.body().data.token)
    assert.isString(listed.body().data.find((passkey: any) => passkey.id === id).lastUsedAt)
    assert.deepEqual(await logged(user.id), [
      ['mfa_required', 1],
      ['succeeded', 1],
    ])
    // The mfaToken is spent.
    assert.equal(errorCode(await loginOptions(client, { mfaToken: token })), 'E_MFA_TOKEN_INVALID')

    // With TOTP as well, both methods are named; either completes the step.
    await enrolled(user)
    const both = await passwordStep(client, user)
    assert.deepEqual(both.body().data.methods, ['totp', 'passkey'])
    const second = await secondStepWith(client, both.body().data.mfaToken, authenticator)
    second.assertStatus(200)
  })

  test('refused: another origin, another RP ID, no UV, another or a spent challenge; each counts as a wrong code', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('careful')
    const { authenticator } = await enrol(client, user)
    const token = await mfaToken(client, user)
    const cases: Overrides[] = [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { uv: false },
      { challenge: 'AAAAAAAAAAAAAAAAAAAAAA' },
    ]
    let options: any
    for (const overrides of cases) {
      options = (await loginOptions(client, { mfaToken: token })).body().data
      const response = authenticator.assert(options, overrides)
      assertPasskeyInvalid(assert, await passkeyStep(client, { mfaToken: token, response }))
    }
    // A right assertion for the last challenge: spent by the refused one.
    const spent = await passkeyStep(client, {
      mfaToken: token,
      response: authenticator.assert(options),
    })
    assertPasskeyInvalid(assert, spent)
    // Five refusals: the mfaToken is dead, as after five wrong codes.
    assert.equal(errorCode(await loginOptions(client, { mfaToken: token })), 'E_MFA_TOKEN_INVALID')
    assert.deepEqual(await logged(user.id), [
      ['mfa_required', 1],
      ['mfa_failed', 5],
    ])
    const [row] = await rowsOf(user.id)
    assert.equal(Number(row.counter), 0)
    assert.isNull(row.last_used_at)
    // And the (account, address) key of the second step is spent: a right passkey waits.
    const next = await secondStepWith(client, await mfaToken(client, user), authenticator)
    assert.equal(next.status(), 429)
    assert.equal(errorCode(next), 'E_TOO_MANY_REQUESTS')
  })

  test("another account's passkey, a malformed response: 4xx, nothing changed", async ({
    client,
    assert,
  }) => {
    const owner = await createAdmin('owner')
    const thief = await createAdmin('thief')
    const { authenticator: ownersKey } = await enrol(client, owner)
    await enrol(client, thief)
    // The thief knows the owner's password and answers with its own passkey (foreign to owner).
    const token = await mfaToken(client, owner)
    const thiefKey = new SoftAuthenticator()
    await enrol(client, thief, 'Second', thiefKey)
    assertPasskeyInvalid(assert, await secondStepWith(client, token, thiefKey))
    // A credential id nobody has.
    assertPasskeyInvalid(assert, await secondStepWith(client, token, new SoftAuthenticator()))
    // Malformed: 422 before anything is spent; then the owner's passkey still works.
    const options = (await loginOptions(client, { mfaToken: token })).body().data
    const response: any = ownersKey.assert(options)
    delete response.response.signature
    assertValidationError(assert, await passkeyStep(client, { mfaToken: token, response }), [
      'response.response.signature',
    ])
    const garbled: any = ownersKey.assert(options)
    garbled.response.authenticatorData = 'AAAA'
    assertPasskeyInvalid(assert, await passkeyStep(client, { mfaToken: token, response: garbled }))
    assert.deepEqual(
      (await rowsOf(thief.id)).map((row) => [Number(row.counter), row.last_used_at]),
      [
        [0, null],
        [0, null],
      ]
    )
    const done = await secondStepWith(client, token, ownersKey)
    done.assertStatus(200)
  })

  test('a signature counter that goes back is refused and logged', async ({ client, assert }) => {
    const user = await createAdmin('cloned')
    const { authenticator } = await enrol(client, user)
    ;(await secondStepWith(client, await mfaToken(client, user), authenticator)).assertStatus(200)
    ;(await secondStepWith(client, await mfaToken(client, user), authenticator)).assertStatus(200)
    assert.equal(Number((await rowsOf(user.id))[0].counter), 2)

    // A copy of the authenticator signs with a counter at or below the last one seen.
    const token = await mfaToken(client, user)
    for (const counter of [2, 1]) {
      const refused = await secondStepWith(client, token, authenticator, { counter })
      assertPasskeyInvalid(assert, refused, 'counter')
    }
    assert.equal(Number((await rowsOf(user.id))[0].counter), 2)
    assert.deepInclude(await logged(user.id), ['passkey_counter_regressed', 2])
    // The genuine authenticator, further on, signs in.
    const done = await secondStepWith(client, token, authenticator, { counter: 7 })
    done.assertStatus(200)
    assert.equal(Number((await rowsOf(user.id))[0].counter), 7)
  })

  test('authenticators without a counter (always 0) are not compared', async ({ client }) => {
    const user = await createAdmin('synced')
    const { authenticator } = await enrol(client, user)
    for (let i = 0; i < 2; i++) {
      const done = await secondStepWith(client, await mfaToken(client, user), authenticator, {
        counter: 0,
      })
      done.assertStatus(200)
    }
  })

  test('an account without a passkey: options are a 409; a bad mfaToken a 400', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('totp.only')
    await enrolled(user)
    const first = await passwordStep(client, user)
    assert.deepEqual(first.body().data.methods, ['totp'])
    const options = await loginOptions(client, { mfaToken: first.body().data.mfaToken })
    assert.equal(options.status(), 409)
    assert.equal(errorCode(options), 'E_CONFLICT')
    const bad = await loginOptions(client, { mfaToken: 'not-a-live-token' })
    assert.equal(errorCode(bad), 'E_MFA_TOKEN_INVALID')
    // An empty body is the sign-in with a passkey alone (auth_passkey_sign_in.spec.ts).
    assertValidationError(assert, await loginOptions(client, { mfaToken: 'not a token' }), [
      'mfaToken',
    ])
  })
})

test.group('Passkeys: through the ceiling', (group) => {
  withRealCommits(group)

  /** Takes the account to its ceiling (the count itself: tests/functional/auth_ceiling.spec.ts). */
  const lock = async (account: string) => {
    for (let i = 0; i < adminAuthConfig.limits.loginAccountCap; i++) {
      await consume(ceilingKey(account))
    }
  }
  const login = async (client: ApiClient, body: Record<string, unknown>) =>
    client.post('/api/auth/login').json({ captchaToken: await freshCredential(), ...body })
  const ceilingOptions = async (client: ApiClient, account: string) =>
    loginOptions(client, { account, captchaToken: await freshCredential() })
  const failedChecks = async (userId: number) =>
    Number((await db.from('users').where('id', userId).first()).failed_logins)

  test('locked: the password alone is refused; with a passkey assertion it is checked and signs in', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('besieged')
    const { authenticator } = await enrol(client, user)
    await lock('besieged')
    const refused = await login(client, { account: 'besieged', password: TEST_PASSWORD })
    assert.equal(refused.status(), 429)
    assert.equal(errorCode(refused), 'E_ACCOUNT_LOCKED')

    // Options for the account: the credential is spent; no credential ids named.
    const captchaToken = await freshCredential()
    const answer = await loginOptions(client, { account: 'Besieged', captchaToken })
    answer.assertStatus(200)
    const options = answer.body().data
    assert.deepEqual(options.allowCredentials, [])
    assert.equal(options.userVerification, 'required')
    const again = await loginOptions(client, { account: 'besieged', captchaToken })
    assert.equal(errorCode(again), 'E_CAPTCHA_TOKEN_INVALID')

    // A wrong password with the passkey: checked (the ceiling is passed), counted on the passkey.
    const wrong = await client.post('/api/auth/login').json({
      account: 'besieged',
      password: WRONG,
      passkey: authenticator.assert(options),
    })
    assert.equal(wrong.status(), 401)
    assert.equal(errorCode(wrong), 'E_INVALID_CREDENTIALS')
    assert.equal(await failedChecks(user.id), 1)
    // The assertion was for one attempt: the same one again is refused, no password checked.
    const reused = await client.post('/api/auth/login').json({
      account: 'besieged',
      password: TEST_PASSWORD,
      passkey: authenticator.assert(options),
    })
    assertPasskeyInvalid(assert, reused)
    assert.equal(await failedChecks(user.id), 1)

    // The right password with a fresh assertion: signed in (the passkey is the second factor).
    const fresh = (await ceilingOptions(client, 'besieged')).body().data
    const signedIn = await client.post('/api/auth/login').json({
      account: 'besieged',
      password: TEST_PASSWORD,
      passkey: authenticator.assert(fresh),
    })
    signedIn.assertStatus(200)
    assert.properties(signedIn.body().data, ['token', 'deviceToken'])
    assert.notProperty(signedIn.body().data, 'mfaRequired')
    ;(await client.get('/api/auth/me').bearerToken(signedIn.body().data.token)).assertStatus(200)
    assert.equal(Number((await rowsOf(user.id))[0].counter), 3)
    // The owner signed in: the ceiling restarts, the password step is open again.
    const open = await login(client, { account: 'besieged', password: TEST_PASSWORD })
    open.assertStatus(200)
    assert.isTrue(open.body().data.mfaRequired)
    assert.deepEqual((await logged(user.id)).slice(-4), [
      ['wrong_password', 1],
      ['passkey_failed', 1],
      ['succeeded', 1],
      ['mfa_required', 1],
    ])
  })

  test('options look the same for an unknown account and one without a passkey', async ({
    client,
    assert,
  }) => {
    await createAdmin('plain')
    const keys = async (account: string) => {
      const answer = await ceilingOptions(client, account)
      answer.assertStatus(200)
      const { challenge, ...rest } = answer.body().data
      assert.match(challenge, /^[\w-]{43}$/)
      return rest
    }
    const unknown = await keys('nobody-here')
    assert.deepEqual(await keys('plain'), unknown)
    assert.deepEqual(unknown, {
      rpId: adminAuthConfig.passkeys.rpId,
      allowCredentials: [],
      timeout: 300_000,
      userVerification: 'required',
    })
    const missing = await loginOptions(client, { account: 'plain' })
    assert.equal(errorCode(missing), 'E_CAPTCHA_TOKEN_INVALID')
  })

  test("another account's passkey, or options for another account, pass nothing", async ({
    client,
    assert,
  }) => {
    const victim = await createAdmin('victim')
    const attacker = await createAdmin('attacker')
    await enrol(client, victim)
    const { authenticator } = await enrol(client, attacker)
    await lock('victim')
    // Options for the victim, answered by the attacker's own passkey.
    const options = (await ceilingOptions(client, 'victim')).body().data
    const foreign = await client.post('/api/auth/login').json({
      account: 'victim',
      password: TEST_PASSWORD,
      passkey: authenticator.assert(options),
    })
    assertPasskeyInvalid(assert, foreign)
    // Options for the attacker's account do not open the victim's.
    const own = (await ceilingOptions(client, 'attacker')).body().data
    const crossed = await client.post('/api/auth/login').json({
      account: 'victim',
      password: TEST_PASSWORD,
      passkey: authenticator.assert(own),
    })
    assertPasskeyInvalid(assert, crossed)
    assert.equal(await failedChecks(victim.id), 0, 'no password checked')
    assert.deepEqual(await logged(victim.id), [['passkey_failed', 2]])
    const still = await login(client, { account: 'victim', password: TEST_PASSWORD })
    assert.equal(errorCode(still), 'E_ACCOUNT_LOCKED')
  })

  test("the second step's ceiling holds codes only: a keyless right code is refused, the passkey signs in", async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('codelocked')
    const { authenticator } = await enrol(client, user)
    const { secret } = await enrolled(user)
    for (let i = 0; i < adminAuthConfig.limits.loginAccountCap; i++) {
      await consume(mfaCeilingKey(user.id))
    }
    const token = await mfaToken(client, user)
    const byCode = await client
      .post('/api/auth/login/2fa')
      .json({ mfaToken: token, code: totp(secret) })
    assert.equal(byCode.status(), 429)
    assert.equal(errorCode(byCode), 'E_ACCOUNT_LOCKED')
    const byPasskey = await secondStepWith(client, token, authenticator)
    byPasskey.assertStatus(200)
  })
})

test.group('Passkeys: removal and resets', (group) => {
  withRealCommits(group)

  test("removal needs the password; another's passkey is a 404; audited", async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('remover')
    const other = await createAdmin('bystander')
    const { id: laptop, token } = await enrol(client, user, 'Laptop')
    await enrol(client, user, 'Phone')
    const { id: theirs } = await enrol(client, other)
    const remove = (id: number | string, password: string) =>
      client.delete(`/api/auth/passkeys/${id}`).bearerToken(token).json({ password })

    assertValidationError(assert, await remove(laptop, WRONG), ['password'])
    assert.lengthOf(await rowsOf(user.id), 2)
    for (const id of [theirs, 999_999]) {
      const missing = await remove(id, TEST_PASSWORD)
      assert.equal(missing.status(), 404)
      assert.equal(errorCode(missing), 'E_NOT_FOUND')
    }
    assert.equal((await remove('abc', TEST_PASSWORD)).status(), 404)
    assert.lengthOf(await rowsOf(other.id), 1)

    ;(await remove(laptop, TEST_PASSWORD)).assertStatus(204)
    assert.deepEqual(
      (await rowsOf(user.id)).map((row) => row.name),
      ['Phone']
    )
    assert.equal(await passkeyCount(user.id), 1)
    const [audited] = await db
      .from('audit_logs')
      .where({ actor_id: user.id, permission: 'auth:passkey:delete' })
    assert.deepEqual(JSON.parse(audited.changes).name, ['Laptop', null])
  })

  test('the last factor removed: remembered devices are asked again', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('forgetful')
    const { authenticator, id, token } = await enrol(client, user)
    const step = await mfaToken(client, user)
    const options = (await loginOptions(client, { mfaToken: step })).body().data
    const remembered = await passkeyStep(client, {
      mfaToken: step,
      response: authenticator.assert(options),
      rememberDevice: true,
    })
    remembered.assertStatus(200)
    assert.lengthOf(await db.from('device_tokens').where({ user_id: user.id, remembered: true }), 1)
    ;(
      await client
        .delete(`/api/auth/passkeys/${id}`)
        .bearerToken(token)
        .json({ password: TEST_PASSWORD })
    ).assertStatus(204)
    assert.lengthOf(await db.from('device_tokens').where({ user_id: user.id, remembered: true }), 0)
    assert.equal(await passkeyCount(user.id), 0)
    // Without a factor the password signs in.
    const signedIn = await passwordStep(client, user)
    assert.properties(signedIn.body().data, ['token'])
  })

  test('admin reset: {name}')
    .with([
      { name: 'a super admin removes the passkeys', caller: 'super', target: 'plain', ok: true },
      { name: 'refused over a larger account', caller: 'code', target: 'larger', ok: false },
    ] as const)
    .run(async ({ client, assert }, row) => {
      const resetCode = 'system:user:reset-2fa'
      const caller =
        row.caller === 'super'
          ? await superAdminUser()
          : (await userWithPermissions([resetCode])).user
      const target = (
        await userWithPermissions(row.target === 'larger' ? [resetCode, 'system:role:list'] : [])
      ).user
      await enrol(client, target, 'One')
      await enrol(client, target, 'Two')
      const response = await client.delete(`/api/admin/users/${target.id}/2fa`).loginAs(caller)
      if (row.ok) {
        response.assertStatus(204)
        assert.lengthOf(await rowsOf(target.id), 0)
        assert.equal(await passkeyCount(target.id), 0)
        const [audited] = await db.from('audit_logs').where('permission', resetCode)
        assert.deepEqual(JSON.parse(audited.changes), {
          twoFactor: ['none', 'none'],
          passkeys: [2, 0],
        })
        // The password alone signs in now.
        assert.properties((await passwordStep(client, target)).body().data, ['token'])
      } else {
        assertForbidden(assert, response)
        assert.lengthOf(await rowsOf(target.id), 2)
        assert.equal(await passkeyCount(target.id), 2)
      }
    })

  test('node ace user:reset-2fa <account> removes the passkeys too', async ({ client, assert }) => {
    const admin = await superAdminUser({ account: 'sole.keyholder' })
    await enrol(client, admin)
    const run = runAce(['user:reset-2fa', 'sole.keyholder'])
    assert.equal(run.status, 0, run.output)
    assert.lengthOf(await rowsOf(admin.id), 0)
    assert.equal(await passkeyCount(admin.id), 0)
    const [row] = await db.from('audit_logs').where('actor', 'command:user:reset-2fa')
    assert.deepEqual(JSON.parse(row.changes).passkeys, [1, 0])
  })
})
