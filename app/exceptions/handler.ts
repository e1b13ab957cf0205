import { errors as vineErrors } from '@vinejs/vine'
import { errors as bouncerErrors } from '@adonisjs/bouncer'
import { errors as limiterErrors } from '@adonisjs/limiter'
import { errors as lucidErrors } from '@adonisjs/lucid'
import { type HttpContext, ExceptionHandler } from '@adonisjs/core/http'
import { ApiException, FieldError, RowErrors, tooManyRequests } from '#exceptions/api_exception'
import { localeOf, messageOf, refusalOf, rowMessageOf } from '#exceptions/messages'
import { recordRefusal } from '#services/audit_log'
import { permissionOf } from '#middleware/permission_middleware'
import { readinessSuspect } from '#start/health'
import { OncePerMinute } from '#core/per_minute'
import { rateLimitRefusals } from '#core/operations/metrics'

type ErrorEntry = { code: string; message: string; field?: string; rule?: string; row?: number }
type Rendered = { status: number; errors: ErrorEntry[]; headers?: Record<string, string> }

/** Default code per status for errors raised by the framework and its packages. */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'E_BAD_REQUEST',
  401: 'E_UNAUTHORIZED',
  403: 'E_FORBIDDEN',
  404: 'E_NOT_FOUND',
  405: 'E_METHOD_NOT_ALLOWED',
  409: 'E_CONFLICT',
  413: 'E_PAYLOAD_TOO_LARGE',
  415: 'E_UNSUPPORTED_MEDIA_TYPE',
  422: 'E_VALIDATION_ERROR',
  429: 'E_TOO_MANY_REQUESTS',
}

/** Unique-constraint violations (a race lost after the service's own check): answered 409. */
const UNIQUE_VIOLATIONS = new Set([
  '23505',
  'SQLITE_CONSTRAINT_UNIQUE',
  'SQLITE_CONSTRAINT_PRIMARYKEY',
])

/** Foreign-key violations: a concurrent request deleted or linked the row this write references. */
const FOREIGN_KEY_VIOLATIONS = new Set(['23503', 'SQLITE_CONSTRAINT_FOREIGNKEY'])

/**
 * Errors that mean a data store cannot be reached right now: answered 503, not 500. Redis (the
 * optional limiter store) fails fast with message-only errors, matched in isUnavailable().
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown
  '57014', // query_canceled: a statement timeout (the public pool's) cut a slow query
  '57P03', // cannot_connect_now
  '08000',
  '08003',
  '08006',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
])

/** 403 warnings written, per (user, method, route) per minute (logForbidden). */
export const forbiddenWarnings = new OncePerMinute('forbidden-warnings')

/**
 * Every error leaves in the error contract (README.md, "HTTP API"):
 * `{ errors: [{ code, message, field?, rule? }] }`, as JSON whatever the client's Accept header
 * asks for: handle() renders every error itself and never calls the exceptions' own handle()
 * methods, which negotiate HTML (AdonisJS's, Bouncer's, the limiter's).
 * 5xx bodies never carry SQL, stack traces or driver messages; the details go to the log with
 * the request id.
 */
export default class HttpExceptionHandler extends ExceptionHandler {
  protected debug = false

  async handle(error: unknown, ctx: HttpContext) {
    const rendered = this.render(error, localeOf(ctx))
    if (rendered.status === 429) rateLimitRefusals.inc({ route: ctx.route?.pattern ?? 'unmatched' })
    if (rendered.status === 403) {
      // Logs and the audit log in English, whatever the caller reads.
      const reason = localeOf(ctx) === 'en' ? rendered : this.render(error, 'en')
      this.logForbidden(ctx, reason.errors[0].message)
      await this.auditRefusal(ctx, reason.errors[0].message)
    }
    // A deliberate 503 (an ApiException: the search gate shedding load) is an answer, not a fault.
    if (rendered.status >= 500 && !(error instanceof ApiException)) {
      ctx.logger.error(
        {
          err: error,
          method: ctx.request.method(),
          url: ctx.request.url(),
        },
        rendered.status === 503 ? 'data store unavailable' : 'unhandled error'
      )
    }
    for (const [name, value] of Object.entries(rendered.headers ?? {})) {
      ctx.response.header(name, value)
    }
    ctx.response.header('Cache-Control', 'no-store')
    ctx.response.status(rendered.status).send({ errors: rendered.errors })
  }

  /** Logging happens in handle(), once, with the request id; nothing else to report. */
  async report() {}

  /**
   * 403s, route-level or from a policy, are logged here: who, the permission the route declares,
   * and the reason the client was given. Once per (user, method, route) per minute, like the
   * login log's refusals: `repeated` says how many of that key were left out since its previous
   * line (the refused writes' audit rows keep their exact counts).
   */
  protected logForbidden(ctx: HttpContext, reason: string) {
    const userId = ctx.auth?.use('jwt').userId
    const method = ctx.request.method()
    const route = ctx.route?.pattern ?? ctx.request.url()
    const repeated = forbiddenWarnings.take(`${userId ?? '-'}\n${method}\n${route}`)
    if (repeated === null) return
    ctx.logger.warn(
      {
        userId,
        apiTokenId: ctx.auth?.use('jwt').apiTokenId,
        permission: permissionOf(ctx.route) ?? undefined,
        method,
        url: ctx.request.url(),
        reason,
        ...(repeated > 0 ? { repeated } : {}),
      },
      'forbidden'
    )
  }

  /**
   * A refused admin write gets its audit row. If the data store fails here the 403 still goes
   * out (the refusal happened); the failure is logged as an error, not hidden.
   */
  protected async auditRefusal(ctx: HttpContext, reason: string) {
    try {
      await recordRefusal(ctx, reason)
    } catch (error) {
      ctx.logger.error({ err: error }, 'audit refusal not recorded')
    }
  }

  /** The error in the contract, its messages in `locale` (resources/lang; VineJS's already are). */
  protected render(error: unknown, locale: string): Rendered {
    const message = (key: string, data?: Record<string, unknown>) => messageOf(key, data, locale)
    if (error instanceof ApiException) {
      return {
        status: error.status,
        errors: [{ code: error.code!, message: message(error.key, error.data) }],
        headers: error.headers,
      }
    }
    if (error instanceof bouncerErrors.E_AUTHORIZATION_FAILURE) {
      const translation = error.response.translation
      return {
        status: 403,
        errors: [
          {
            code: 'E_FORBIDDEN',
            message: translation
              ? refusalOf(translation.identifier, translation.data, locale)
              : error.response.message || message('forbidden'),
          },
        ],
      }
    }
    if (error instanceof vineErrors.E_VALIDATION_ERROR) {
      return { status: 422, errors: this.validationEntries(error.messages) }
    }
    if (error instanceof RowErrors) {
      return {
        status: error.status,
        errors: error.rows.map((entry) => ({
          code: entry.code,
          message: rowMessageOf(entry, locale),
          field: entry.field,
          row: entry.row,
        })),
      }
    }
    if (error instanceof FieldError) {
      return {
        status: 422,
        errors: [
          {
            code: 'E_VALIDATION_ERROR',
            message: message(error.key, error.data),
            field: error.field,
            rule: error.rule,
          },
        ],
      }
    }

    if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) {
      // The limiter's own exception (route throttles, the captcha allowance): the same answer as
      // ours, with the allowance of the limiter that refused.
      return this.render(tooManyRequests(error.response.availableIn, error.response.limit), locale)
    }
    if (error instanceof lucidErrors.E_ROW_NOT_FOUND) {
      return { status: 404, errors: [{ code: 'E_NOT_FOUND', message: message('notFound') }] }
    }

    const err = (error ?? {}) as {
      status?: number
      code?: string
      message?: string
      errno?: string
    }
    if (err.code && UNIQUE_VIOLATIONS.has(err.code)) {
      return {
        status: 409,
        errors: [{ code: 'E_CONFLICT', message: message('valueTaken') }],
      }
    }
    if (err.code && FOREIGN_KEY_VIOLATIONS.has(err.code)) {
      return {
        status: 409,
        errors: [{ code: 'E_CONFLICT', message: message('relatedChanged') }],
      }
    }
    if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
      return {
        status: err.status,
        errors: [
          {
            code: CODE_BY_STATUS[err.status] ?? 'E_BAD_REQUEST',
            message: this.clientMessage(err, locale),
          },
        ],
      }
    }
    // Whatever failed, the next readiness probe runs its checks again.
    readinessSuspect()
    if (this.isUnavailable(error)) {
      return {
        status: 503,
        errors: [{ code: 'E_UNAVAILABLE', message: message('unavailable') }],
      }
    }
    return { status: 500, errors: [{ code: 'E_INTERNAL', message: message('internal') }] }
  }

  protected validationEntries(messages: unknown): ErrorEntry[] {
    const list = Array.isArray(messages) ? messages : []
    return list.map((entry: { field: string; message: string; rule: string }) => ({
      code: 'E_VALIDATION_ERROR',
      message: entry.message,
      field: entry.field,
      rule: entry.rule,
    }))
  }

  /**
   * Framework 4xx messages are safe to show in English, except the JSON parser's, which echo
   * input; in another language, the status's own message.
   */
  protected clientMessage(err: { status?: number; message?: string }, locale: string) {
    if (err.status === 400 && err instanceof SyntaxError)
      return messageOf('malformedJson', {}, locale)
    if (err.status === 404) return messageOf('notFound', {}, locale)
    if (err.status === 413) return messageOf('payloadTooLarge', {}, locale)
    if (locale !== 'en' || !err.message) return messageOf(`status.${err.status}`, {}, locale)
    return err.message
  }

  protected isUnavailable(error: unknown): boolean {
    const seen = new Set<unknown>()
    let current: any = error
    while (current && !seen.has(current)) {
      seen.add(current)
      if (typeof current.code === 'string' && UNAVAILABLE_CODES.has(current.code)) return true
      const message = String(current.message ?? '')
      if (
        /Connection terminated|timeout exceeded when trying to connect|Knex: Timeout acquiring|Connection is closed|max retries per request|Command timed out/i.test(
          message
        )
      ) {
        return true
      }
      current = current.cause
    }
    return false
  }
}
