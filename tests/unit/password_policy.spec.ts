import { test } from '@japa/runner'
import { FieldError } from '#exceptions/api_exception'
import { PASSWORD_MAX, PASSWORD_MIN } from '#resources/users'
import {
  PASSWORD_MIN_SCORE,
  assertPasswordPolicy,
  preloadPasswordPolicy,
} from '#services/password_policy'

/** The FieldError thrown by the policy, or undefined when the password is accepted. */
async function refusal(password: string, account = 'alice', field?: string) {
  try {
    await assertPasswordPolicy(password, account, field)
  } catch (error) {
    if (error instanceof FieldError) return error
    throw error
  }
}

/** 128 characters of unrelated words: strong, and exactly the upper bound. */
const LONGEST =
  'Violet-Quartz-Harbor-Mango-Tundra-Piano-Falcon-Ember-Cactus-Lagoon-Walrus-Saffron-Glacier-Thimble-Orbit-Nectar-Basalt-Juniper-Kelp'.slice(
    0,
    PASSWORD_MAX
  )

/** The passwords of issue "The front door" that must be refused, each with why. */
const REFUSED: [string, 'notCommon' | 'strength'][] = [
  ['P@ssword1', 'notCommon'],
  ['admin123456', 'notCommon'],
  ['Password2026!', 'notCommon'],
  ['abcd1234', 'notCommon'],
  ['Welcome123!', 'notCommon'],
  ['Qwerty123!', 'notCommon'],
  ['Admin@2026', 'notCommon'],
  ['12341234', 'strength'],
  ['iloveyou1', 'notCommon'],
  ['ruoyi123', 'strength'],
]

test.group('Password policy', () => {
  // First in the group: the first check of this process loads the dictionaries.
  test('the dictionaries load once: cost of the first and of later checks', async ({ assert }) => {
    let start = performance.now()
    assert.isUndefined(await refusal('Drab-Ostrich-Plum-61'))
    const first = performance.now() - start
    const later: number[] = []
    for (const password of ['Drab-Ostrich-Plum-61', 'Qwerty123!', 'correct horse battery staple']) {
      start = performance.now()
      await refusal(password)
      later.push(performance.now() - start)
    }
    start = performance.now()
    await Promise.all([preloadPasswordPolicy(), preloadPasswordPolicy()])
    const preload = performance.now() - start
    start = performance.now()
    await refusal(LONGEST)
    const longest = performance.now() - start
    console.log(
      `    password policy: first check ${first.toFixed(1)} ms (loads the dictionaries unless the seeder did in this process), later ${later.map((t) => t.toFixed(1)).join(', ')} ms, 128 characters ${longest.toFixed(1)} ms`
    )
    assert.isBelow(Math.max(...later), 250)
    assert.isBelow(preload, 5, 'loaded once, not again')
    assert.equal(PASSWORD_MIN_SCORE, 3)
  })

  test('length: 8 to 128 characters, both bounds included', async ({ assert }) => {
    assert.equal(PASSWORD_MIN, 8)
    assert.equal(PASSWORD_MAX, 128)
    assert.lengthOf(LONGEST, 128)
    assert.isUndefined(await refusal(LONGEST))
    // 8 characters pass the length rule; zxcvbn then needs more than 8 random characters for
    // PASSWORD_MIN_SCORE (it counts 10^8 guesses for them), so the refusal is the strength one.
    assert.equal((await refusal('k#9Tq!vZ'))?.rule, 'strength')
    assert.isUndefined(await refusal('k#9Tq!vZw4'))
    for (const password of ['', 'x'.repeat(7), LONGEST + 'x', 'x'.repeat(1000)]) {
      const error = await refusal(password)
      assert.instanceOf(error, FieldError, `length ${password.length}`)
      assert.equal(error!.rule, 'length')
      assert.equal(error!.status, 422)
    }
  })

  test('not containing the account name, whatever the case', async ({ assert }) => {
    assert.equal((await refusal('AliceSmith', 'alicesmith'))?.rule, 'notAccount')
    assert.equal((await refusal('alicesmith', 'ALICESMITH'))?.rule, 'notAccount')
    assert.equal((await refusal('alicesmith1', 'alicesmith'))?.rule, 'notAccount')
    assert.equal((await refusal('Violet-ALICESMITH-Harbor-7', 'alicesmith'))?.rule, 'notAccount')
    assert.equal((await refusal('Quartz-Harbor-Admin-61', 'admin'))?.rule, 'notAccount')
    assert.match((await refusal('Quartz-Harbor-Admin-61', 'admin'))!.message, /account name/)
    // An account name of 2 letters is not searched for: it occurs in too many words.
    assert.isUndefined(await refusal('Bolt-Ostrich-Plum-61', 'bo'))
    // The length rule comes first: a short account name is refused for its length.
    assert.equal((await refusal('bob', 'bob'))?.rule, 'length')
  })

  test('the account is a known word to zxcvbn: its parts make a password weaker', async ({
    assert,
  }) => {
    // Without the account, just strong enough; with "kestrel.vortex" its two words are known.
    assert.isUndefined(await refusal('VortexKestrel', 'alice'))
    assert.equal((await refusal('VortexKestrel', 'kestrel.vortex'))?.rule, 'strength')
  })

  for (const [password, rule] of REFUSED) {
    test(`refused: ${password} (${rule})`, async ({ assert }) => {
      const error = await refusal(password)
      assert.instanceOf(error, FieldError)
      assert.equal(error!.status, 422)
      assert.equal(error!.code, 'E_VALIDATION_ERROR')
      assert.equal(error!.rule, rule)
      assert.match(
        error!.message,
        rule === 'notCommon' ? /common or breached/ : /too easy to guess/
      )
    })
  }

  test('well-known passwords are refused, whatever the case or decoration', async ({ assert }) => {
    for (const password of [
      'password',
      'PassWord1',
      '12345678',
      'P@ssw0rd',
      'qwertyuiop',
      'password1234',
      'Sunshine!2024',
      '!!Football99',
    ]) {
      assert.oneOf((await refusal(password))?.rule, ['notCommon', 'strength'], password)
    }
    assert.equal((await refusal('qwertyuiop'))?.rule, 'notCommon')
    assert.isUndefined(await refusal('correct horse battery staple'))
    assert.isUndefined(await refusal('Drab-Ostrich-Plum-61'))
  })

  test('the shared test password passes', async ({ assert }) => {
    assert.isUndefined(await refusal('Correct-Horse-9-Battery', 'alice'))
    assert.isUndefined(await refusal('A-Brand-New-Passphrase-7', 'changer'))
  })

  test('the error names the given field', async ({ assert }) => {
    assert.equal((await refusal('short', 'alice', 'newPassword'))?.field, 'newPassword')
    assert.equal((await refusal('short'))?.field, 'password')
    assert.equal((await refusal('Qwerty123!', 'alice', 'newPassword'))?.field, 'newPassword')
  })
})
