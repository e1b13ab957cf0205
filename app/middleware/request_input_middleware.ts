import app from '@adonisjs/core/services/app'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import bodyParserConfig from '#config/bodyparser'
import { FieldError } from '#exceptions/api_exception'
import { isPlainJson, readJsonBody } from '#core/json_body'

/**
 * Returns the path of the first string holding a NUL character, or null. With `emptyToNull`, empty
 * strings in objects and arrays become null on the way (the bodyparser's convertEmptyStringsToNull,
 * for the JSON bodies read by readJsonBody).
 */
function findNul(value: unknown, path: string, emptyToNull = false, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'input' : null
  if (depth > 32 || value === null || typeof value !== 'object') return null
  // for...in, not Object.entries: no array per object on every request (params, query string).
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const child = (value as Record<string, unknown>)[key]
    if (key.includes('\u0000')) return path ? `${path}.${key}` : key
    if (emptyToNull && child === '') (value as Record<string, unknown>)[key] = null
    if (typeof child === 'string') {
      if (child.includes('\u0000')) return path ? `${path}.${key}` : key
    } else if (child !== null && typeof child === 'object') {
      const found = findNul(child, path ? `${path}.${key}` : key, emptyToNull, depth + 1)
      if (found) return found
    }
  }
  return null
}

/** The bodyparser (a container singleton), for the bodies readJsonBody leaves to it. */
const bodyParser = await app.container.make(BodyParserMiddleware)
const BODY_METHODS = new Set<string>(bodyParserConfig.allowedMethods)

/**
 * Route params and the query string come from the URL, where a NUL can only arrive encoded
 * (`%00`: Node refuses a raw one, and a bad UTF-8 sequence decodes to no character at all):
 * without one, neither is walked.
 */
const mayHoldNul = (url = '') => url.includes('%00') || url.includes('\u0000')

function rejectNul(ctx: HttpContext, inBody: string | null) {
  const inUrl = mayHoldNul(ctx.request.request.url)
  const field = (inUrl && (findNul(ctx.params, '') ?? findNul(ctx.request.qs(), ''))) || inBody
  if (field) throw new FieldError(field, 'nulCharacters', 'noNullBytes')
}

/** A plain JSON body (app/core/json_body.ts), set on the request as the bodyparser does. */
async function readJson(ctx: HttpContext) {
  const { raw, parsed } = await readJsonBody(ctx.request.request)
  const nulAt = findNul(parsed, '', true)
  ctx.request.setInitialBody(parsed)
  ctx.request.updateRawBody(raw)
  ctx.request.bodyType = 'json'
  rejectNul(ctx, nulAt)
}

/**
 * The request's input, for every matched route: the body parsed where the method has one (a GET
 * reads none; a plain JSON body is read by readJsonBody, anything else by the bodyparser), then no
 * NUL character anywhere. No text column accepts one (PostgreSQL refuses it outright, SQLite
 * truncates it in places), and no field of this API needs one: refused at the door, in route
 * params, query string and body, with a 422 instead of a database error.
 */
export default class RequestInputMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    if (!BODY_METHODS.has(ctx.request.method())) {
      rejectNul(ctx, null)
      return next()
    }
    if (ctx.request.hasBody() && isPlainJson(ctx.request.request)) {
      return readJson(ctx).then(() => next())
    }
    return bodyParser.handle(ctx, () => {
      rejectNul(ctx, findNul(ctx.request.body(), ''))
      return next()
    })
  }
}
