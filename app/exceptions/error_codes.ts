const entry = (status: number, description: string) => ({ status, description })

/**
 * Every `code` the error contract can carry, with the status it comes with. The OpenAPI document
 * publishes this table (components.schemas.Error); tests/unit/error_codes.spec.ts fails when the
 * code under app/ or start/ uses an `E_*` code missing here.
 */
export const ERROR_CODES = {
  E_BAD_REQUEST: entry(400, 'Malformed request (JSON body, headers)'),
  E_CAPTCHA_FAILED: entry(400, 'Wrong or replayed captcha answer'),
  E_CAPTCHA_TOKEN_INVALID: entry(400, 'Captcha credential missing, expired or used'),
  E_MFA_TOKEN_INVALID: entry(400, 'Login second step: mfaToken unknown, expired, used or dead'),
  E_PASSKEY_INVALID: entry(
    400,
    'Passkey response refused: challenge expired or used, wrong origin or RP ID, no user ' +
      'verification, unknown or foreign credential, counter gone back, or bad signature'
  ),
  E_EMAIL_TOKEN_INVALID: entry(400, 'A mailed link unknown, expired, used or for something else'),
  E_EMAIL_CODE_INVALID: entry(400, 'The mailed code is wrong, expired, used or tried too often'),
  E_UNAUTHORIZED: entry(401, 'No valid token, or the session ended'),
  E_INVALID_CREDENTIALS: entry(401, 'Unknown account, wrong password, or wrong second-factor code'),
  E_DEVICE_TOKEN_REUSED: entry(
    401,
    'A superseded device token was presented: every device of the account was revoked'
  ),
  E_FORBIDDEN: entry(403, 'The permission code or the grant rule refuses'),
  E_PASSWORD_CHANGE_REQUIRED: entry(403, 'The account must change its password first'),
  E_2FA_SETUP_REQUIRED: entry(403, 'The account must set up a second factor first'),
  E_PASSKEY_REQUIRED: entry(
    403,
    'Right password, but the account signs in with its passkey only (AUTH_PASSKEY_REQUIRED)'
  ),
  E_NOT_FOUND: entry(404, 'No such resource (or route)'),
  E_METHOD_NOT_ALLOWED: entry(405, 'Method not allowed'),
  E_CONFLICT: entry(409, 'Unique value taken, or a concurrent change'),
  E_PAYLOAD_TOO_LARGE: entry(413, 'Request body too large'),
  E_UNSUPPORTED_MEDIA_TYPE: entry(415, 'Body is not JSON'),
  E_HEADERS_TOO_LARGE: entry(431, 'Request headers too large'),
  E_VALIDATION_ERROR: entry(422, 'Invalid input; one entry per field, with `field` and `rule`'),
  E_EXPORT_TOO_LARGE: entry(422, 'The export would exceed its row limit: narrow the filters'),
  E_TOO_MANY_REQUESTS: entry(429, 'Rate limited; see Retry-After'),
  E_ACCOUNT_LOCKED: entry(
    429,
    "The account's failed sign-ins reached the ceiling: only an owner's key (device) passes"
  ),
  E_INTERNAL: entry(500, 'Unexpected error (details only in the server log)'),
  E_UNAVAILABLE: entry(
    503,
    'A data store is unreachable, a statement timed out, or the instance drains'
  ),
}

export type ErrorCode = keyof typeof ERROR_CODES
