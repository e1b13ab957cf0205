import app from '@adonisjs/core/services/app'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import bodyParserConfig from '#config/bodyparser'
import { FieldError } from '#exceptions/api_exception'

/** Returns the path of the first string holding a NUL character, or null. */
function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'input' : null
  if (depth > 32 || value === null || typeof value !== 'object') return null
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key
    if (key.includes('\u0000')) return childPath
    const found = findNul(child, childPath, depth + 1)
    if (found) return found
  }
  return null
}

/** The bodyparser (a container singleton), run only for the methods it parses (config/bodyparser.ts). */
const bodyParser = await app.container.make(BodyParserMiddleware)
const BODY_METHODS = new Set<string>(bodyParserConfig.allowedMethods)

function rejectNul(ctx: HttpContext, withBody: boolean) {
  const field =
    findNul(ctx.params, '') ??
    findNul(ctx.request.qs(), '') ??
    (withBody ? findNul(ctx.request.body(), '') : null)
  if (field) throw new FieldError(field, 'NUL characters are not allowed', 'noNullBytes')
}

/**
 * The request's input, for every matched route: the body parsed where the method has one (a GET
 * skips the bodyparser altogether), then no NUL character anywhere. No text column accepts one
 * (PostgreSQL refuses it outright, SQLite truncates it in places), and no field of this API needs
 * one: refused at the door, in route params, query string and body, with a 422 instead of a
 * database error.
 */
export default class RequestInputMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    if (!BODY_METHODS.has(ctx.request.method())) {
      rejectNul(ctx, false)
      return next()
    }
    return bodyParser.handle(ctx, () => {
      rejectNul(ctx, true)
      return next()
    })
  }
}
