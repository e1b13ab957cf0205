import { test } from '@japa/runner'
import { FieldError } from '#exceptions/api_exception'
import { PASSWORD_MAX, PASSWORD_MIN, assertPasswordPolicy } from '#services/password_policy'

/** The FieldError thrown by the policy, or undefined when the password is accepted. */
function refusal(password: string, account = 'alice', field?: string) {
  try {
    assertPasswordPolicy(password, account, field)
  } catch (error) {
    if (error instanceof FieldError) return error
    throw error
  }
}

test.group('Password policy', () => {
  test('length: 8 to 128 characters, both bounds included', ({ assert }) => {
    assert.equal(PASSWORD_MIN, 8)
    assert.equal(PASSWORD_MAX, 128)
    assert.isUndefined(refusal('x'.repeat(8)))
    assert.isUndefined(refusal('x'.repeat(128)))
    for (const password of ['', 'x'.repeat(7), 'x'.repeat(129), 'x'.repeat(1000)]) {
      const error = refusal(password)
      assert.instanceOf(error, FieldError, `length ${password.length}`)
      assert.equal(error!.rule, 'length')
      assert.equal(error!.status, 422)
    }
  })

  test('not the account name, whatever the case', ({ assert }) => {
    assert.equal(refusal('AliceSmith', 'alicesmith')?.rule, 'notAccount')
    assert.equal(refusal('alicesmith', 'ALICESMITH')?.rule, 'notAccount')
    assert.isUndefined(refusal('alicesmith1', 'alicesmith'))
    // The length rule comes first: a short account name is refused for its length.
    assert.equal(refusal('bob', 'bob')?.rule, 'length')
  })

  test('well-known passwords are refused, whatever the case', ({ assert }) => {
    for (const password of ['password', 'PassWord1', '12345678', 'P@ssw0rd', 'qwertyuiop']) {
      assert.equal(refusal(password)?.rule, 'notCommon', password)
    }
    assert.isUndefined(refusal('password1234'))
    assert.isUndefined(refusal('correct horse battery staple'))
  })

  test('the error names the given field', ({ assert }) => {
    assert.equal(refusal('short', 'alice', 'newPassword')?.field, 'newPassword')
    assert.equal(refusal('short')?.field, 'password')
  })
})
