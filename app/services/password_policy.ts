import { FieldError } from '#exceptions/api_exception'

/** Passwords too common to accept, whatever their length. */
const COMMON_PASSWORDS = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  '11111111',
  'qwertyui',
  'qwerty123',
  'iloveyou',
  'admin123',
  'administrator',
  'welcome1',
  'letmein1',
  'abc12345',
  'passw0rd',
  'p@ssw0rd',
  'changeme',
  'sunshine',
  'football',
  'baseball',
  'superman',
  'trustno1',
  'whatever',
  'dragon12',
  'monkey12',
  'admin@123',
  'root1234',
  'qwertyuiop',
  '1q2w3e4r',
  '1qaz2wsx',
  'zaq12wsx',
  'aa123456',
  'a1234567',
  'password!',
  'welcome123',
  'admin1234',
])

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 128

/**
 * The password policy (README.md, "Password policy" under "HTTP API"): 8..128 characters (the
 * whole string is hashed, nothing is truncated), not the account name, not a well-known password.
 * Throws a 422 FieldError.
 */
export function assertPasswordPolicy(password: string, account: string, field = 'password') {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new FieldError(
      field,
      `The password must be between ${PASSWORD_MIN} and ${PASSWORD_MAX} characters`,
      'length'
    )
  }
  const lowered = password.toLowerCase()
  if (lowered === account.toLowerCase()) {
    throw new FieldError(field, 'The password must not be the account name', 'notAccount')
  }
  if (COMMON_PASSWORDS.has(lowered)) {
    throw new FieldError(field, 'The password is too common', 'notCommon')
  }
}
