import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { withRealCommits } from '#tests/helpers/database'
import { TEST_PASSWORD, challengeAnswer, createAdmin, freshCredential } from '#tests/helpers/auth'
import { newCaptcha, rightVerify, solvePow } from '#tests/helpers/captcha'
import { powParameters } from '#captcha/proof_of_work'
import { countFailure, failureState } from '#auth/limits'
import { accountKey, ipKey } from '#auth/login_limiter'
import adminAuthConfig from '#config/admin_auth'
import type { ApiClient } from '@japa/api-client'
import { sendFrom } from '#tests/helpers/http_from'

/**
 * Adaptive proof of work (app/captcha/difficulty.ts), from the attacker's side and the owner's:
 * the cost rises with an address's challenge rate and failures and with an account's lock; a
 * device token gets the base cost; a locked account lets a new device in at a higher cost.
 */
const WRONG = 'Wrong-Guess-123'
const levelOf = async (client: ApiClient, query = '', headers: Record<string, string> = {}) => {
  const response = await client.get(`/api/auth/captcha${query}`).headers(headers)
  response.assertStatus(200)
  return response.body().data
}

/** Challenge (for `account`, if given), slider, right drag: the one-time credential. */
async function sliderCredential(client: ApiClient, account?: string): Promise<string> {
  const slider = await newCaptcha(client, { account })
  slider.assertStatus(200)
  const { captchaId } = slider.body().data
  const verify = await client
    .post('/api/auth/captcha/verify')
    .json(await rightVerify({ captchaId }, await challengeAnswer(captchaId)))
  verify.assertStatus(200)
  return verify.body().data.captchaToken
}

/** The whole flow for an account: challenge for it, slider, drag, then login. */
async function loginThroughCaptcha(client: ApiClient, account: string, password: string) {
  const captchaToken = await sliderCredential(client, account)
  return {
    captchaToken,
    response: await client.post('/api/auth/login').json({ account, password, captchaToken }),
  }
}

test.group('Captcha difficulty', (group) => {
  withRealCommits(group)

  test('levels: x1, x2, x4, x16 parts of one hex digit each, at one N', ({ assert }) => {
    const { powCost: cost, powParts: parts } = adminAuthConfig.captcha
    assert.deepEqual(powParameters(0), { cost, keyPrefix: '0', parts })
    assert.deepEqual(powParameters(1), { cost, keyPrefix: '0', parts: 2 * parts })
    assert.deepEqual(powParameters(2), { cost, keyPrefix: '0', parts: 4 * parts })
    assert.deepEqual(powParameters(3), { cost, keyPrefix: '0', parts: 16 * parts })
  })

  test('an address pays x2 from its 4th challenge in 30 minutes', async ({ client, assert }) => {
    const levels = []
    for (let i = 0; i < 5; i++) levels.push((await levelOf(client)).level)
    assert.deepEqual(levels, [0, 0, 0, 1, 1])
    const last = await levelOf(client)
    assert.equal(last.pow.parameters.data.parts, 2 * adminAuthConfig.captcha.powParts)
  })

  test('an address pays x4 after 3 failures; refused proofs of work count', async ({
    client,
    assert,
  }) => {
    const { pow } = await levelOf(client)
    for (let i = 0; i < 3; i++) {
      const response = await client.post('/api/auth/captcha').json({
        pow: { challenge: pow, solution: { counters: [i] } },
      })
      response.assertStatus(400)
    }
    const next = await levelOf(client)
    assert.equal(next.level, 2)
    assert.equal(next.pow.parameters.data.parts, 4 * adminAuthConfig.captcha.powParts)
  })

  test('a locked account: new devices pay level 2 and get in; a cheaper credential is a 429', async ({
    client,
    assert,
  }) => {
    await createAdmin('owner')
    // An attacker, from 5 other addresses, used up the account's failures from new devices.
    for (let i = 1; i <= 5; i++) {
      const from = `127.0.5.${i}`
      const attempt = await sendFrom(from, 'POST', '/api/auth/login', {
        body: { account: 'owner', password: WRONG, captchaToken: await freshCredential(from) },
      })
      assert.equal(attempt.status, 401)
    }
    assert.isTrue((await failureState(accountKey('owner'))).blocked)

    // Without naming the account the captcha is cheap, and the credential is refused by the lock
    // before any hash, left unspent.
    const anonymous = await levelOf(client)
    assert.equal(anonymous.level, 0)
    const cheapToken = await sliderCredential(client)
    const refused = await client
      .post('/api/auth/login')
      .json({ account: 'owner', password: TEST_PASSWORD, captchaToken: cheapToken })
    refused.assertStatus(429)
    assert.isAtLeast(Number(refused.header('retry-after')), 60)

    // Named, the account asks for level 2; the owner's new browser pays it and logs in.
    const named = await levelOf(client, '?account=OWNER')
    assert.equal(named.level, 2)
    assert.equal(named.pow.parameters.data.account, 'owner')
    const owner = await loginThroughCaptcha(client, 'owner', TEST_PASSWORD)
    assert.match(owner.captchaToken, /^2\./)
    owner.response.assertStatus(200)
    assert.isFalse((await failureState(accountKey('owner'))).blocked, 'a success clears the lock')
  })

  test('a credential says its level; claiming more than was paid spends it for nothing', async ({
    client,
  }) => {
    await createAdmin('owner')
    const captchaToken = await sliderCredential(client)
    const forged = `2.${captchaToken.split('.')[1]}`
    const login = await client
      .post('/api/auth/login')
      .json({ account: 'owner', password: TEST_PASSWORD, captchaToken: forged })
    login.assertStatus(400)
    login.assertBodyContains({ errors: [{ code: 'E_CAPTCHA_TOKEN_INVALID' }] })
  })

  test('a credential asked for one account does not log in another', async ({ client }) => {
    await createAdmin('alice')
    await createAdmin('bob')
    const captchaToken = await sliderCredential(client, 'alice')
    const login = await client
      .post('/api/auth/login')
      .json({ account: 'bob', password: TEST_PASSWORD, captchaToken })
    login.assertStatus(400)
    login.assertBodyContains({ errors: [{ code: 'E_CAPTCHA_TOKEN_INVALID' }] })
  })

  test("the owner's device token gets the base cost from an address that pays x4", async ({
    client,
    assert,
  }) => {
    await createAdmin('owner')
    const first = await loginThroughCaptcha(client, 'owner', TEST_PASSWORD)
    first.response.assertStatus(200)
    const { deviceToken } = first.response.body().data
    for (let i = 0; i < 3; i++) {
      ;(await loginThroughCaptcha(client, 'owner', WRONG)).response.assertStatus(401)
    }
    assert.equal((await levelOf(client, '?account=owner')).level, 2)
    const trusted = await levelOf(client, '?account=owner', { 'x-device-token': deviceToken })
    assert.equal(trusted.level, 0)
    // A device token of another account is no help.
    await createAdmin('other')
    const foreign = await levelOf(client, '?account=other', { 'x-device-token': deviceToken })
    assert.isAtLeast(foreign.level, 2)
  })

  test("100 attacking addresses: the owner's worst case in a new browser is level 2 (x4)", async ({
    client,
    assert,
  }) => {
    await createAdmin('owner')
    // 100 addresses, 2 wrong passwords each: every address stays below its own limits, the
    // account's failures are used up many times over.
    const statuses: number[] = []
    for (let i = 1; i <= 100; i++) {
      const from = `127.0.4.${i}`
      for (let j = 0; j < 2; j++) {
        const reply = await sendFrom(from, 'POST', '/api/auth/login', {
          body: { account: 'owner', password: WRONG, captchaToken: await freshCredential(from) },
        })
        statuses.push(reply.status)
      }
    }
    assert.equal(statuses.filter((status) => status === 401).length, 5, 'five hashes, then 429s')
    assert.isTrue((await failureState(accountKey('owner'))).blocked)
    // Attackers naming the account pay level 2 as well.
    const attacker = await sendFrom('127.0.4.7', 'GET', '/api/auth/captcha?account=owner')
    assert.equal(attacker.body.data.level, 2)

    // The owner, new browser, new address: level 2, never more, whatever the attackers did.
    const owner = await levelOf(client, '?account=owner')
    assert.equal(owner.level, 2)
    const { response } = await loginThroughCaptcha(client, 'owner', TEST_PASSWORD)
    response.assertStatus(200)
  })

  test("a blocked address gets no slider (429), except for the owner's device challenge", async ({
    client,
    assert,
  }) => {
    await createAdmin('owner')
    const first = await loginThroughCaptcha(client, 'owner', TEST_PASSWORD)
    const { deviceToken } = first.response.body().data
    const pow = (await levelOf(client)).pow
    const devicePow = (await levelOf(client, '?account=owner', { 'x-device-token': deviceToken }))
      .pow
    assert.isTrue(devicePow.parameters.data.device)
    for (let i = 0; i < adminAuthConfig.limits.loginFailuresPerIp; i++) {
      await countFailure(ipKey('127.0.0.1'))
    }
    const refused = await client.post('/api/auth/captcha').json({ pow: await solvePow(pow) })
    refused.assertStatus(429)
    const [one] = await db.from('captcha_challenges').count('* as total')
    assert.equal(Number(one.total), 1, "only the owner's first login drew a slider")
    const owner = await client.post('/api/auth/captcha').json({ pow: await solvePow(devicePow) })
    owner.assertStatus(200)
  })
})
