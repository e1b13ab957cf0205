import { test } from '@japa/runner'
import { randomBytes } from 'node:crypto'
import { humanTrack } from '#tests/helpers/captcha'
import db from '@adonisjs/lucid/services/db'
import { withRealCommits } from '#tests/helpers/database'
import { ADMIN_ACCOUNT, ADMIN_PASSWORD } from '#tests/helpers/auth'
import { issueCredential, saveChallenge } from '#captcha/challenge_store'

/**
 * Races on the single-use objects, through the real HTTP stack (and, on PostgreSQL, a pool of
 * real connections): whatever the interleaving, a challenge verifies once and a credential logs
 * in once. 1,000 races in all: 900 on challenges, 100 on credentials, 8 requests each.
 */
const RACERS = 8
const CHALLENGE_RACES = 900
const CREDENTIAL_RACES = 100

test.group('Reliability: nothing is double-spent', (group) => {
  withRealCommits(group)

  test('900 races of 8 concurrent verifies of one challenge: one success each', async ({
    client,
    assert,
  }) => {
    let successes = 0
    for (let race = 0; race < CHALLENGE_RACES; race++) {
      // Per-IP captcha limits are not under test here.
      if (race % 3 === 0) await db.from('rate_limits').delete()
      const answer = 40 + (race % 200)
      const captchaId = randomBytes(16).toString('hex')
      await saveChallenge(captchaId, answer, 120, '127.0.0.1')
      const body = { captchaId, x: answer, track: humanTrack(answer) }
      const responses = await Promise.all(
        Array.from({ length: RACERS }, () => client.post('/api/auth/captcha/verify').json(body))
      )
      const statuses = responses.map((response) => response.status())
      const won = statuses.filter((status) => status === 200).length
      assert.equal(won, 1, `race ${race}: ${statuses.join(',')}`)
      assert.isTrue(statuses.every((status) => status === 200 || status === 400))
      successes += won
    }
    assert.equal(successes, CHALLENGE_RACES)
    const [challenges] = await db.from('captcha_challenges').count('* as total')
    const [credentials] = await db.from('captcha_tokens').count('* as total')
    assert.equal(Number(challenges.total), 0)
    assert.equal(Number(credentials.total), CHALLENGE_RACES)
  }).timeout(600_000)

  test('100 races of 8 concurrent logins with one credential: at most one token each', async ({
    client,
    assert,
  }) => {
    let tokens = 0
    for (let race = 0; race < CREDENTIAL_RACES; race++) {
      // Failure counters are not under test here (5 failures would block the account).
      await db.from('rate_limits').delete()
      const captchaToken = await issueCredential(120, '127.0.0.1')
      // A wrong password keeps the race cheap (one hash per race) and still consumes the credential.
      const password = race % 10 === 0 ? ADMIN_PASSWORD : 'Wrong-Password-0'
      const responses = await Promise.all(
        Array.from({ length: RACERS }, () =>
          client.post('/api/auth/login').json({ account: ADMIN_ACCOUNT, password, captchaToken })
        )
      )
      const statuses = responses.map((response) => response.status())
      const passedCredential = statuses.filter((status) => status !== 400).length
      assert.equal(passedCredential, 1, `race ${race}: ${statuses.join(',')}`)
      tokens += statuses.filter((status) => status === 200).length
    }
    assert.equal(tokens, CREDENTIAL_RACES / 10)
    const [left] = await db.from('captcha_tokens').count('* as total')
    assert.equal(Number(left.total), 0)
  }).timeout(600_000)
})
