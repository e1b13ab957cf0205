import { Exception } from '@adonisjs/core/exceptions'
import { messageOf } from '#exceptions/messages'

type Data = Record<string, string | number>

/**
 * An error the API answers on purpose. The handler renders every one of them as
 * `{ errors: [{ code, message }] }` with its status (the error contract: README.md, "HTTP API";
 * the default code per status: CODE_BY_STATUS in handler.ts), the message in the caller's
 * language: `key` names it in resources/lang/<locale>/errors.json, `data` fills it in (ICU).
 * `message` is the English one (logs, tests).
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
    public key: string,
    public headers?: Record<string, string>,
    public data?: Data
  ) {}

  get message() {
    return messageOf(this.key, this.data)
  }
}
Object.setPrototypeOf(ApiException.prototype, Exception.prototype)
ApiException.prototype.name = 'ApiException'

export const unauthorized = (key = 'unauthorized') => new ApiException(401, 'E_UNAUTHORIZED', key)

export const invalidCredentials = (key = 'invalidCredentials') =>
  new ApiException(401, 'E_INVALID_CREDENTIALS', key)

export const forbidden = (key = 'forbidden') => new ApiException(403, 'E_FORBIDDEN', key)

export const notFound = (key = 'notFound') => new ApiException(404, 'E_NOT_FOUND', key)

export const conflict = (key: string, data?: Data) =>
  new ApiException(409, 'E_CONFLICT', key, undefined, data)

export const exportTooLarge = (limit: number) =>
  new ApiException(422, 'E_EXPORT_TOO_LARGE', 'exportTooLarge', undefined, { limit })

export const captchaFailed = () => new ApiException(400, 'E_CAPTCHA_FAILED', 'captchaFailed')

export const captchaTokenInvalid = () =>
  new ApiException(400, 'E_CAPTCHA_TOKEN_INVALID', 'captchaTokenInvalid')

export const mfaTokenInvalid = () => new ApiException(400, 'E_MFA_TOKEN_INVALID', 'mfaTokenInvalid')

export const passkeyInvalid = (key = 'passkeyInvalid') =>
  new ApiException(400, 'E_PASSKEY_INVALID', key)

/** AUTH_PASSKEY_REQUIRED covers the account: a right password alone does not sign it in. */
export const passkeyRequired = () => new ApiException(403, 'E_PASSKEY_REQUIRED', 'passkeyRequired')

export const deviceTokenReused = () =>
  new ApiException(401, 'E_DEVICE_TOKEN_REUSED', 'deviceTokenReused')

export const emailTokenInvalid = () =>
  new ApiException(400, 'E_EMAIL_TOKEN_INVALID', 'emailTokenInvalid')

export const emailCodeInvalid = () =>
  new ApiException(400, 'E_EMAIL_CODE_INVALID', 'emailCodeInvalid')

/** A requirement the account must settle first (app/auth/account_requirements.ts): its own code. */
export const requirementPending = (code: string, key: string) => new ApiException(403, code, key)

/** 413: the body, a file, or what it unpacks to, is over a size limit. */
export const payloadTooLarge = (key = 'payloadTooLarge', data?: Data) =>
  new ApiException(413, 'E_PAYLOAD_TOO_LARGE', key, undefined, data)

export const requestAborted = () => new ApiException(400, 'E_BAD_REQUEST', 'requestAborted')

export const jsonNotObject = () => new ApiException(422, 'E_VALIDATION_ERROR', 'jsonNotObject')

/** Retry-After in whole seconds, at least 1. */
const retryAfter = (seconds: number) => ({ 'Retry-After': String(Math.max(1, Math.ceil(seconds))) })

/**
 * A 429 carries Retry-After and the RateLimit-* headers (IETF draft, as a counted success sends
 * them: app/auth/limits.ts setRateLimitHeaders): nothing remains, the window resets when the
 * client may retry. `limit` is the allowance of the key that refused, when the caller knows it;
 * without it only RateLimit-Limit is left out.
 */
function refusedFor(retryAfterSeconds: number, limit?: number) {
  const headers: Record<string, string> = retryAfter(retryAfterSeconds)
  if (limit !== undefined) headers['RateLimit-Limit'] = String(limit)
  headers['RateLimit-Remaining'] = '0'
  headers['RateLimit-Reset'] = headers['Retry-After']
  return headers
}

export const tooManyRequests = (retryAfterSeconds: number, limit?: number) =>
  new ApiException(
    429,
    'E_TOO_MANY_REQUESTS',
    'tooManyRequests',
    refusedFor(retryAfterSeconds, limit)
  )

/**
 * The account's ceiling is reached (app/auth/limits.ts): callers without an owner's key are
 * refused until the owner signs in, an unlock, or the window ends.
 */
export const accountLocked = (retryAfterSeconds: number) =>
  new ApiException(429, 'E_ACCOUNT_LOCKED', 'accountLocked', refusedFor(retryAfterSeconds))

/** Busy, not broken: the client may retry after a moment (rendered like a data store outage). */
export const unavailable = (retryAfterSeconds: number) =>
  new ApiException(503, 'E_UNAVAILABLE', 'unavailable', retryAfter(retryAfterSeconds))

/**
 * A validation failure raised by business code (not by VineJS), rendered like a 422 from VineJS;
 * `key` and `data` name its message as ApiException's do.
 */
export class FieldError extends Exception {
  constructor(
    public field: string,
    public key: string,
    public rule = 'invalid',
    public data?: Data
  ) {
    super(messageOf(key, data), { status: 422, code: 'E_VALIDATION_ERROR' })
  }
}

/** A problem with one row of an uploaded file (row 1 is the header). */
/**
 * One refused row: `message` in English; the caller's language from `key` and `data` (a catalog
 * message), `refusal` (a policy's translation) or `rule` and `meta` (a VineJS rule).
 */
export type RowError = {
  row: number
  field: string
  code: string
  message: string
  key?: string
  data?: Data
  refusal?: { identifier: string; data?: Record<string, unknown> }
  rule?: string
  meta?: Record<string, unknown>
}

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
