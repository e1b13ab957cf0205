import { Exception } from '@adonisjs/core/exceptions'

/**
 * An error the API answers on purpose. The handler renders every one of them as
 * `{ errors: [{ code, message }] }` with its status (the error contract: README.md, "HTTP API";
 * the default code per status: CODE_BY_STATUS in handler.ts).
 *
 * An answer (401, 404, 429 ...), never a fault to debug: it inherits from AdonisJS's Exception
 * (so `instanceof Error` and `instanceof Exception` hold, and `toString()` works) but is not built
 * by the Error constructor, so it has no stack. Building an Error cost a refused login ~0.013 ms of
 * CPU (about 12 %, measured A/B on the built server), even with `Error.stackTraceLimit` at 0.
 */
export interface ApiException extends Exception {}
export class ApiException {
  constructor(
    public status: number,
    public code: string,
    public message: string,
    public headers?: Record<string, string>
  ) {}
}
Object.setPrototypeOf(ApiException.prototype, Exception.prototype)
ApiException.prototype.name = 'ApiException'

export const unauthorized = (message = 'Authentication required') =>
  new ApiException(401, 'E_UNAUTHORIZED', message)

export const invalidCredentials = (message = 'Invalid account or password') =>
  new ApiException(401, 'E_INVALID_CREDENTIALS', message)

export const forbidden = (message = 'You do not have permission to perform this action') =>
  new ApiException(403, 'E_FORBIDDEN', message)

export const notFound = (message = 'Resource not found') =>
  new ApiException(404, 'E_NOT_FOUND', message)

export const conflict = (message: string) => new ApiException(409, 'E_CONFLICT', message)

export const exportTooLarge = (limit: number) =>
  new ApiException(
    422,
    'E_EXPORT_TOO_LARGE',
    `The filters match more than ${limit} rows: narrow them (for example with from/to) and export again`
  )

export const captchaFailed = () =>
  new ApiException(400, 'E_CAPTCHA_FAILED', 'Captcha verification failed, fetch a new challenge')

export const captchaTokenInvalid = () =>
  new ApiException(
    400,
    'E_CAPTCHA_TOKEN_INVALID',
    'The captcha credential is missing, expired or already used'
  )

/** Retry-After in whole seconds, at least 1. */
const retryAfter = (seconds: number) => ({ 'Retry-After': String(Math.max(1, Math.ceil(seconds))) })

/**
 * A 429 carries Retry-After and the RateLimit-* headers (IETF draft, as a counted success sends
 * them: app/auth/limits.ts setRateLimitHeaders): nothing remains, the window resets when
 * the client may retry. `limit` is the allowance of the key that refused, when the caller knows
 * it; without it only RateLimit-Limit is left out (the login blocks of limits.ts refuse
 * without naming their key's allowance).
 */
export const tooManyRequests = (retryAfterSeconds: number, limit?: number) => {
  const headers: Record<string, string> = retryAfter(retryAfterSeconds)
  if (limit !== undefined) headers['RateLimit-Limit'] = String(limit)
  headers['RateLimit-Remaining'] = '0'
  headers['RateLimit-Reset'] = headers['Retry-After']
  return new ApiException(429, 'E_TOO_MANY_REQUESTS', 'Too many requests, try again later', headers)
}

/**
 * The account's ceiling is reached (app/auth/limits.ts): callers without an owner's key
 * are refused until the owner signs in, an unlock, or the window ends.
 */
export const accountLocked = (retryAfterSeconds: number) => {
  const error = tooManyRequests(retryAfterSeconds)
  error.code = 'E_ACCOUNT_LOCKED'
  error.message =
    'Too many failed sign-ins for this account: it is locked for new browsers. Sign in from a ' +
    'device you used before, or ask an administrator to unlock it'
  return error
}

/** Busy, not broken: the client may retry after a moment (rendered like a data store outage). */
export const unavailable = (retryAfterSeconds: number) =>
  new ApiException(
    503,
    'E_UNAVAILABLE',
    'The service is temporarily unavailable',
    retryAfter(retryAfterSeconds)
  )

/** A validation failure raised by business code (not by VineJS), rendered like a 422 from VineJS. */
export class FieldError extends Exception {
  constructor(
    public field: string,
    message: string,
    public rule = 'invalid'
  ) {
    super(message, { status: 422, code: 'E_VALIDATION_ERROR' })
  }
}

/** A problem with one row of an uploaded file (row 1 is the header). */
export type RowError = { row: number; field: string; code: string; message: string }

/**
 * Rows of an upload refused (the user import): nothing was written. 403 when any row was refused
 * by the grant rule or the data scope, else 422; every row's problems are listed.
 */
export class RowErrors extends Exception {
  constructor(public rows: RowError[]) {
    const refused = rows.some((row) => row.code === 'E_FORBIDDEN')
    super(refused ? REFUSED_ROWS : 'Rows of the file were refused', {
      status: refused ? 403 : 422,
      code: refused ? 'E_FORBIDDEN' : 'E_VALIDATION_ERROR',
    })
  }
}
const REFUSED_ROWS = 'Rows of the file grant or place beyond what you hold: nothing was imported'
