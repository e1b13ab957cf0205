import { test } from '@japa/runner'
import sharp from 'sharp'
import db from '@adonisjs/lucid/services/db'
import { withRealCommits } from '#tests/helpers/database'
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, challengeAnswer } from '#tests/helpers/auth'
import { humanTrack, newCaptcha, rightVerify, solvePow, wrongCounter } from '#tests/helpers/captcha'
import { createChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import { assertRateLimitHeaders } from '#tests/helpers/rate_limit'
import adminAuthConfig from '#config/admin_auth'
import { failureState } from '#auth/limits'
import { ipKey } from '#auth/login_limiter'
import { powFailureKey } from '#captcha/captcha_limits'
import { addressKey } from '#core/address_key'

const FAILED = {
  errors: [
    { code: 'E_CAPTCHA_FAILED', message: 'Captcha verification failed, fetch a new challenge' },
  ],
}

/** A straight drag at constant speed and even intervals: what a lazy script sends. */
function linearTrack(x: number) {
  const points: [number, number, number][] = []
  for (let i = 0; i <= 40; i++) {
    points.push([Math.round((x * i) / 40), 2 + (i % 3), i * 22])
  }
  return points
}

const decode = (dataUrl: string) => Buffer.from(dataUrl.split(',')[1], 'base64')

/** Logs in through the limiter, whose store has its own connection: real commits. */
test.group('Slider captcha', (group) => {
  withRealCommits(group)

  test('a challenge carries two decodable images, the piece row and sizes, never the answer', async ({
    client,
    assert,
  }) => {
    const response = await newCaptcha(client)
    response.assertStatus(200)
    assert.equal(response.header('cache-control'), 'no-store')
    const { data } = response.body()
    assert.sameMembers(Object.keys(data), [
      'captchaId',
      'backgroundImage',
      'pieceImage',
      'pieceY',
      'width',
      'height',
      'pieceSize',
      'expiresIn',
    ])
    assert.match(data.backgroundImage, /^data:image\/(webp|png);base64,/)

    const background = await sharp(decode(data.backgroundImage)).metadata()
    const piece = await sharp(decode(data.pieceImage)).metadata()
    assert.equal(background.width, data.width)
    assert.equal(background.height, data.height)
    assert.equal(piece.width, data.pieceSize)
    assert.equal(piece.height, data.pieceSize)
    assert.isTrue(piece.hasAlpha)
    assert.isAtMost(response.text().length, 25 * 1024, 'payload <= 25 KB')

    const answer = await challengeAnswer(data.captchaId)
    const text = response.text()
    assert.notMatch(
      text,
      new RegExp(`"[a-zA-Z]*[xX]"\\s*:\\s*${answer}\\b`),
      'no x field in the response'
    )
    assert.notProperty(data, 'x')
    assert.notProperty(data, 'answerX')
  })

  test('the right x earns a one-time credential that logs in once', async ({ client, assert }) => {
    const { data } = (await newCaptcha(client)).body()
    const x = await challengeAnswer(data.captchaId)
    const verify = await client
      .post('/api/auth/captcha/verify')
      .json({ ...(await rightVerify(data, x + 3)) })
    verify.assertStatus(200)
    assert.sameMembers(Object.keys(verify.body().data), ['captchaToken', 'expiresIn'])
    const { captchaToken } = verify.body().data
    assert.match(captchaToken, /^0\./, 'its level first')
    assert.isAtLeast(Buffer.from(captchaToken.split('.')[1], 'base64url').length, 16, '>= 128 bits')

    // Stored hashed only: the table never holds the credential itself.
    const rows = await db.from('captcha_tokens').select('token_hash')
    assert.lengthOf(rows, 1)
    assert.notEqual(rows[0].token_hash, captchaToken)

    const login = await client
      .post('/api/auth/login')
      .json({ account: ADMIN_ACCOUNT, password: ADMIN_PASSWORD, captchaToken })
    login.assertStatus(200)
    const again = await client
      .post('/api/auth/login')
      .json({ account: ADMIN_ACCOUNT, password: ADMIN_PASSWORD, captchaToken })
    again.assertStatus(400)
  })

  test('a wrong x is a 400 and kills the challenge: the right x after it fails too', async ({
    client,
    assert,
  }) => {
    const { data } = (await newCaptcha(client)).body()
    const x = await challengeAnswer(data.captchaId)
    const body = await rightVerify(data, x)
    const wrong = await client
      .post('/api/auth/captcha/verify')
      .json({ ...body, x: x + 20, track: humanTrack(x + 20) })
    wrong.assertStatus(400)
    assert.deepEqual(wrong.body(), FAILED)
    const right = await client.post('/api/auth/captcha/verify').json(body)
    right.assertStatus(400)
    assert.deepEqual(right.body(), FAILED)
    const [count] = await db.from('captcha_tokens').count('* as total')
    assert.equal(Number(count.total), 0)
  })

  test('a reused, expired or unknown challenge is a 400', async ({ client, assert }) => {
    const first = (await newCaptcha(client)).body().data
    const x = await challengeAnswer(first.captchaId)
    const firstBody = await rightVerify(first, x)
    ;(await client.post('/api/auth/captcha/verify').json(firstBody)).assertStatus(200)
    const reused = await client.post('/api/auth/captcha/verify').json(firstBody)
    reused.assertStatus(400)
    assert.deepEqual(reused.body(), FAILED)

    const second = (await newCaptcha(client)).body().data
    const x2 = await challengeAnswer(second.captchaId)
    await db
      .from('captcha_challenges')
      .where('id', second.captchaId)
      .update({ expires_at: Date.now() - 1 })
    const expired = await client
      .post('/api/auth/captcha/verify')
      .json(await rightVerify(second, x2))
    expired.assertStatus(400)
    assert.deepEqual(expired.body(), FAILED)

    const unknown = await client
      .post('/api/auth/captcha/verify')
      .json({ ...firstBody, captchaId: 'no-such-challenge' })
    unknown.assertStatus(400)
  })

  test('an implausible track is refused: {name}')
    .with([
      {
        name: 'too fast',
        track: (x: number) => humanTrack(x).map(([a, b, t]) => [a, b, Math.floor(t / 10)]),
      },
      {
        name: 'too few points',
        track: (x: number) => [
          [0, 1, 0],
          [x, 2, 800],
        ],
      },
      {
        name: 'time goes backwards',
        track: (x: number) => humanTrack(x).map(([a, b, t], i) => [a, b, i === 20 ? 0 : t]),
      },
      { name: 'y constant', track: (x: number) => humanTrack(x).map(([a, , t]) => [a, 5, t]) },
      {
        name: 'a jump over 50 px',
        // 20 wobbling points at the start, then straight to x (x >= 60: a jump of 60 px or more).
        track: (x: number) => [
          ...Array.from({ length: 20 }, (_, i) => [0, 2 + (i % 3), i * 30]),
          ...Array.from({ length: 5 }, (_, i) => [x, 3 + (i % 2), 700 + i * 30]),
        ],
      },
      { name: 'ends far from x', track: (x: number) => humanTrack(x - 30) },
      { name: 'straight, constant speed, even intervals', track: linearTrack },
      {
        name: 'no slowing down at the gap',
        track: (x: number) =>
          humanTrack(x).map(([, b, t], i, all) => [(x * i) / (all.length - 1), b, t]),
      },
      { name: 'no track at all', track: () => undefined },
    ])
    .run(async ({ client }, row) => {
      const { data } = (await newCaptcha(client)).body()
      const x = await challengeAnswer(data.captchaId)
      const response = await client
        .post('/api/auth/captcha/verify')
        .json({ ...(await rightVerify(data, x)), track: row.track(x) })
      response.assertStatus(400)
      // The challenge is spent: the right drag after it fails too.
      const retry = await client.post('/api/auth/captcha/verify').json(await rightVerify(data, x))
      retry.assertStatus(400)
    })

  test('a proof-of-work challenge costs no row; its level is 0 for a quiet address', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/api/auth/captcha')
    response.assertStatus(200)
    const { data } = response.body()
    assert.sameMembers(Object.keys(data), ['pow', 'level', 'expiresIn'])
    assert.equal(data.level, 0)
    assert.equal(data.pow.parameters.algorithm, 'SCRYPT')
    assert.equal(data.pow.parameters.keyPrefix, '0')
    assert.equal(data.pow.parameters.data.parts, adminAuthConfig.captcha.powParts)
    assert.isNull(data.pow.parameters.data.account)
    const [count] = await db.from('captcha_challenges').count('* as total')
    assert.equal(Number(count.total), 0, 'nothing stored, nothing drawn')
  })

  test('proof of work: wrong, foreign, expired or reused -> 400, counted against the address, nothing drawn', async ({
    client,
    assert,
  }) => {
    const challenge = async () => (await client.get('/api/auth/captcha')).body().data.pow
    const post = (pow: unknown) => client.post('/api/auth/captcha').json({ pow })
    const solved = await solvePow(await challenge())
    const { counters } = solved.solution
    const last = counters.length - 1

    // Every part right but the last one.
    const wrongPart = await post({
      ...solved,
      solution: {
        counters: [...counters.slice(0, last), await wrongCounter(solved.challenge, last)],
      },
    })
    // A part missing, or one too many.
    const missing = await post({ ...solved, solution: { counters: counters.slice(0, last) } })
    const extra = await post({ ...solved, solution: { counters: [...counters, 0] } })
    // Cheaper parameters than issued: the signature no longer matches.
    const cheaper = await post({
      ...solved,
      challenge: {
        ...solved.challenge,
        parameters: {
          ...solved.challenge.parameters,
          data: { ...solved.challenge.parameters.data, parts: 1 },
        },
      },
      solution: { counters: counters.slice(0, 1) },
    })
    // Signed by someone else (another key): foreign.
    const foreign = await createChallenge({
      algorithm: 'SCRYPT',
      cost: 16,
      memoryCost: 1,
      parallelism: 1,
      keyPrefix: '0',
      deriveKey,
      data: solved.challenge.parameters.data,
      hmacSignatureSecret: 'not-this-servers-key',
    })
    const foreignPost = await post(await solvePow(foreign))
    // Signed here but expired.
    const expired = await createChallenge({
      algorithm: 'SCRYPT',
      cost: 16,
      memoryCost: 1,
      parallelism: 1,
      deriveKey,
      keyPrefix: '0',
      data: solved.challenge.parameters.data,
      expiresAt: Math.floor(Date.now() / 1000) - 1,
      hmacSignatureSecret: adminAuthConfig.captcha.powKey,
    })
    const expiredPost = await post(await solvePow(expired))
    const refusals = [wrongPart, missing, extra, cheaper, foreignPost, expiredPost]
    for (const response of refusals) {
      response.assertStatus(400)
      assert.deepEqual(response.body(), FAILED)
    }
    const [none] = await db.from('captcha_challenges').count('* as total')
    assert.equal(Number(none.total), 0, 'no slider drawn for a refused proof of work')

    ;(await post(solved)).assertStatus(200)
    const reused = await post(solved)
    reused.assertStatus(400)
    const [one] = await db.from('captcha_challenges').count('* as total')
    assert.equal(Number(one.total), 1, 'one solution, one slider')
    const { failures } = await failureState(ipKey('127.0.0.1'))
    assert.equal(failures, 7, 'every refusal counted against the address')
  })

  test('proof-of-work payloads of the wrong shape -> 422: {name}')
    .with([
      { name: 'missing', pow: undefined },
      { name: 'one counter, not a list', patch: { solution: { counter: 1, derivedKey: '00' } } },
      { name: 'no counter', patch: { solution: { counters: [] } } },
      { name: 'negative counter', patch: { solution: { counters: [-1] } } },
      { name: 'counter not a number', patch: { solution: { counters: ['one'] } } },
      { name: 'counter past uint32', patch: { solution: { counters: [2 ** 32] } } },
      {
        name: 'more counters than any level',
        patch: { solution: { counters: Array(513).fill(0) } },
      },
      {
        name: 'huge cost',
        patch: { challenge: { parameters: { cost: 2 ** 30 } } },
      },
    ])
    .run(async ({ client, assert }, row) => {
      const solved = await solvePow((await client.get('/api/auth/captcha')).body().data.pow)
      const pow =
        'pow' in row
          ? row.pow
          : {
              challenge: {
                ...solved.challenge,
                parameters: {
                  ...solved.challenge.parameters,
                  ...(row.patch as any).challenge?.parameters,
                },
              },
              solution: (row.patch as any).solution ?? solved.solution,
            }
      const response = await client.post('/api/auth/captcha').json({ pow })
      response.assertStatus(422)
      assert.equal(response.body().errors[0].code, 'E_VALIDATION_ERROR')
      const [none] = await db.from('captcha_challenges').count('* as total')
      assert.equal(Number(none.total), 0)
    })

  test("a part's counter solves nothing else: not another challenge, not another part", async ({
    client,
    assert,
  }) => {
    const challenge = async () => (await client.get('/api/auth/captcha')).body().data.pow
    const solved = await solvePow(await challenge())
    const other = await challenge()
    const { counters } = solved.solution
    const post = (pow: unknown) => client.post('/api/auth/captcha').json({ pow })
    ;(await post({ challenge: other, solution: { counters } })).assertStatus(400)
    const shifted = [...counters.slice(1), counters[0]]
    ;(await post({ ...solved, solution: { counters: shifted } })).assertStatus(400)
    assert.equal((await failureState(powFailureKey('127.0.0.1'))).failures, 2, 'both derived')
    // The refusals claimed nothing: the challenge's own counters still draw its slider.
    ;(await post(solved)).assertStatus(200)
  })

  test('verifying stops at the first wrong part, and derives nothing for a wrong count', async ({
    client,
    assert,
  }) => {
    // A challenge signed with this server's key, as costly as a server would never issue: 64
    // parts of scrypt N=2^14 (16 MiB each). All 64 verified would take 64 derivations.
    const parameters = { cost: 2 ** 14, memoryCost: 8, parallelism: 1, keyLength: 32 }
    const pow = await createChallenge({
      algorithm: 'SCRYPT',
      ...parameters,
      keyPrefix: '0',
      deriveKey,
      expiresAt: new Date(Date.now() + 60_000),
      data: { address: addressKey('127.0.0.1'), level: 0, account: null, device: false, parts: 64 },
      hmacSignatureSecret: adminAuthConfig.captcha.powKey,
    })
    const one = async () => {
      const start = performance.now()
      await deriveKey(
        { algorithm: 'SCRYPT', ...parameters } as any,
        Buffer.alloc(16),
        Buffer.alloc(20)
      )
      return performance.now() - start
    }
    const times = [await one(), await one(), await one()].sort((a, b) => a - b)
    const post = (counters: number[]) =>
      client.post('/api/auth/captcha').json({ pow: { challenge: pow, solution: { counters } } })

    const miscounted = await post([0, 1, 2])
    miscounted.assertStatus(400)
    assert.equal((await failureState(powFailureKey('127.0.0.1'))).failures, 0, 'no derivation')

    const wrong = Array(64).fill(await wrongCounter(pow, 0))
    const start = performance.now()
    const refused = await post(wrong)
    const elapsed = performance.now() - start
    refused.assertStatus(400)
    assert.equal((await failureState(powFailureKey('127.0.0.1'))).failures, 1)
    assert.isBelow(elapsed, 8 * times[1], `${elapsed} ms against ${times[1]} ms a derivation`)
  })

  test('8 concurrent posts of one solution draw one slider', async ({ client, assert }) => {
    const solved = await solvePow((await client.get('/api/auth/captcha')).body().data.pow)
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => client.post('/api/auth/captcha').json({ pow: solved }))
    )
    // One draws; the replays are refused: 400, or 429 where more than the address's 3
    // derivations were in flight at once (each reserves one before its key derivation).
    const statuses = responses.map((response) => response.status())
    assert.equal(statuses.filter((status) => status === 200).length, 1, String(statuses))
    assert.isTrue(
      statuses.every((status) => [200, 400, 429].includes(status)),
      String(statuses)
    )
    const [one] = await db.from('captcha_challenges').count('* as total')
    assert.equal(Number(one.total), 1)
  })

  test('a credential is bound to the address that fetched the challenge', async ({ client }) => {
    const { data } = (await newCaptcha(client)).body()
    const x = await challengeAnswer(data.captchaId)
    await db
      .from('captcha_challenges')
      .where('id', data.captchaId)
      .update({ client_ip: '127.0.0.9' })
    const verify = await client.post('/api/auth/captcha/verify').json(await rightVerify(data, x))
    verify.assertStatus(200)
    const login = await client.post('/api/auth/login').json({
      account: ADMIN_ACCOUNT,
      password: ADMIN_PASSWORD,
      captchaToken: verify.body().data.captchaToken,
    })
    login.assertStatus(400)
    login.assertBodyContains({ errors: [{ code: 'E_CAPTCHA_TOKEN_INVALID' }] })
  })

  test('a malformed verify is a 422 and still spends the slider: {name}')
    .with([
      {
        name: 'a track of 1001 points',
        patch: (x: number) => ({ track: Array.from({ length: 1001 }, (_, i) => [x, 1, i]) }),
      },
      {
        name: 'non-numeric coordinates',
        patch: (x: number) => ({
          track: humanTrack(x).map(([a, b, t]) => [String(a) + 'px', b, t]),
        }),
      },
      { name: 'x not a number', patch: () => ({ x: 'twelve' }) },
      { name: 'an unknown input kind', patch: () => ({ input: 'telepathy' }) },
    ])
    .run(async ({ client, assert }, row) => {
      const { data } = (await newCaptcha(client)).body()
      const x = await challengeAnswer(data.captchaId)
      const body = await rightVerify(data, x)
      const malformed = await client
        .post('/api/auth/captcha/verify')
        .json({ ...body, ...row.patch(x) })
      malformed.assertStatus(422)
      assert.equal(malformed.body().errors[0].code, 'E_VALIDATION_ERROR')
      const right = await client.post('/api/auth/captcha/verify').json(body)
      right.assertStatus(400)
      const [count] = await db.from('captcha_tokens').count('* as total')
      assert.equal(Number(count.total), 0, 'no credential issued')
    })

  test('verify validates its request shape: {name}')
    .with([
      { name: 'missing x', body: { captchaId: 'abc' } },
      { name: 'x not a number', body: { captchaId: 'abc', x: 'twelve' } },
      {
        name: 'track points of the wrong length',
        body: { captchaId: 'abc', x: 3, track: [[1, 2]] },
      },
      { name: 'captchaId with odd characters', body: { captchaId: "' OR 1=1 --", x: 3 } },
    ])
    .run(async ({ client, assert }, row) => {
      const response = await client.post('/api/auth/captcha/verify').json(row.body)
      response.assertStatus(422)
      assert.equal(response.body().errors[0].code, 'E_VALIDATION_ERROR')
    })

  test('captcha endpoints are rate limited per IP with Retry-After', async ({ client, assert }) => {
    let limited: Awaited<ReturnType<typeof client.get>> | undefined
    for (let i = 0; i < 40 && !limited; i++) {
      const response = await client.get('/api/auth/captcha')
      if (response.status() === 429) limited = response
      else response.assertStatus(200)
    }
    assert.exists(limited, 'a 429 arrived within 40 requests')
    assert.equal(limited!.body().errors[0].code, 'E_TOO_MANY_REQUESTS')
    assertRateLimitHeaders(assert, limited!.headers(), adminAuthConfig.limits.captchaPerMinute)
    const verify = await client.post('/api/auth/captcha/verify').json({ captchaId: 'abc', x: 1 })
    verify.assertStatus(429)
    assertRateLimitHeaders(assert, verify.headers(), adminAuthConfig.limits.captchaPerMinute)
  })
})

/** Concurrent requests race for real: real commits, not one shared transaction. */
test.group('Slider captcha: concurrent verifies', (group) => {
  withRealCommits(group)

  test('20 concurrent verifies of one challenge: at most one success', async ({
    client,
    assert,
  }) => {
    const { data } = (await newCaptcha(client)).body()
    const x = await challengeAnswer(data.captchaId)
    const body = await rightVerify(data, x)
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => client.post('/api/auth/captcha/verify').json(body))
    )
    const successes = responses.filter((response) => response.status() === 200)
    assert.lengthOf(successes, 1)
    assert.isTrue(responses.every((response) => [200, 400].includes(response.status())))
    const [count] = await db.from('captcha_tokens').count('* as total')
    assert.equal(Number(count.total), 1)
  })
})
