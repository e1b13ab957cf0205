/**
 * Every `code` the error contract can carry, with the status it comes with. The OpenAPI document
 * publishes this table (components.schemas.Error); tests/unit/error_codes.spec.ts fails when the
 * code under app/ or start/ uses an `E_*` code missing here.
 */
export const ERROR_CODES = {
  E_BAD_REQUEST: { status: 400, description: 'Malformed request (JSON body, headers)' },
  E_CAPTCHA_FAILED: { status: 400, description: 'Wrong or replayed captcha answer' },
  E_CAPTCHA_TOKEN_INVALID: {
    status: 400,
    description: 'Captcha credential missing, expired or used',
  },
  E_UNAUTHORIZED: { status: 401, description: 'No valid token, or the session ended' },
  E_INVALID_CREDENTIALS: { status: 401, description: 'Unknown account or wrong password' },
  E_FORBIDDEN: { status: 403, description: 'The permission code or the grant rule refuses' },
  E_NOT_FOUND: { status: 404, description: 'No such resource (or route)' },
  E_METHOD_NOT_ALLOWED: { status: 405, description: 'Method not allowed' },
  E_CONFLICT: { status: 409, description: 'Unique value taken, or a concurrent change' },
  E_PAYLOAD_TOO_LARGE: { status: 413, description: 'Request body too large' },
  E_UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'Body is not JSON' },
  E_HEADERS_TOO_LARGE: { status: 431, description: 'Request headers too large' },
  E_VALIDATION_ERROR: {
    status: 422,
    description: 'Invalid input; one entry per field, with `field` and `rule`',
  },
  E_TOO_MANY_REQUESTS: { status: 429, description: 'Rate limited; see Retry-After' },
  E_INTERNAL: { status: 500, description: 'Unexpected error (details only in the server log)' },
  E_UNAVAILABLE: {
    status: 503,
    description: 'A data store is unreachable, a statement timed out, or the instance drains',
  },
} as const

export type ErrorCode = keyof typeof ERROR_CODES
