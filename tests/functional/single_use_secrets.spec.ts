import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { withRealCommits } from '#tests/helpers/database'
import { createAdmin } from '#tests/helpers/auth'
import { digest, spendOnce, sweepExpired } from '#core/secrets'
import { findMfaChallenge, issueMfaToken, spendMfaChallenge } from '#auth/mfa_tokens'
import { issueLink, spendLink } from '#auth/email_tokens'
import { newRecoveryCodes, spendRecoveryCode, storeRecoveryCodes } from '#auth/two_factor'
import {
  consumeChallenge,
  consumeCredential,
  issueCredential,
  saveChallenge,
} from '#captcha/challenge_store'

/** Spends raced at once, each a statement of its own (separate pooled connections on PostgreSQL). */
const RACERS = 6

/** How many of the racing spends won (a refusal thrown counts as a loss). */
async function winners(spend: () => Promise<unknown>) {
  const results = await Promise.allSettled(Array.from({ length: RACERS }, spend))
  return results.filter((result) => result.status === 'fulfilled' && result.value).length
}

/**
 * app/core/secrets.ts: the spend every single-use store goes through is one conditional
 * statement. Real commits, so that on PostgreSQL the racers hold different connections.
 */
test.group('Single-use secrets: racing spends have exactly one winner', (group) => {
  withRealCommits(group)

  test('spendOnce on a row: one UPDATE wins, the rest change nothing', async ({ assert }) => {
    const user = await createAdmin('spender')
    const { mfaToken } = await issueMfaToken(user.id, 0)
    const hash = digest(mfaToken)
    const won = await winners(() =>
      spendOnce(db.from('mfa_challenges').where('token_hash', hash).where('failures', 0), {
        failures: 1,
      })
    )
    assert.equal(won, 1)
  })

  test('every store: mfa token, email link, recovery code, captcha challenge and credential', async ({
    assert,
  }) => {
    const user = await createAdmin('racer')

    const { mfaToken } = await issueMfaToken(user.id, 0)
    const challenge = (await findMfaChallenge(mfaToken))!
    assert.equal(await winners(() => spendMfaChallenge(challenge)), 1, 'mfa token')

    const link = await issueLink(user.id, 'password_reset')
    const spendTheLink = () =>
      db.transaction((trx) => spendLink(trx, link, 'password_reset', user.id)).then(() => true)
    assert.equal(await winners(spendTheLink), 1, 'email link')

    const codes = newRecoveryCodes()
    await storeRecoveryCodes(db.connection(), user.id, codes)
    assert.equal(await winners(() => spendRecoveryCode(user.id, codes[0])), 1, 'recovery code')

    await saveChallenge('race-challenge', 42, 120, '127.0.0.1')
    assert.equal(await winners(() => consumeChallenge('race-challenge')), 1, 'captcha challenge')

    const credential = await issueCredential(120, '127.0.0.1')
    assert.equal(
      await winners(() => consumeCredential(credential, '127.0.0.1')),
      1,
      'captcha credential'
    )
  })

  test('the sweep deletes expired rows only', async ({ assert }) => {
    const user = await createAdmin('sweeper')
    const { mfaToken } = await issueMfaToken(user.id, 0)
    await db.table('mfa_challenges').insert({
      token_hash: digest('expired'),
      user_id: user.id,
      token_version: 0,
      failures: 0,
      created_at: 0,
      expires_at: Date.now() - 1,
    })
    await sweepExpired('mfa_challenges')
    const left = await db.from('mfa_challenges').where('user_id', user.id).select('token_hash')
    assert.deepEqual(
      left.map((row) => row.token_hash),
      [digest(mfaToken)]
    )
  })
})
