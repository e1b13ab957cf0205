import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
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

/**
 * No text column accepts a NUL character (PostgreSQL refuses it outright, SQLite truncates it
 * in places), and no field of this API needs one: refuse it at the door, for every route and
 * every input (route params, query string, body), with a 422 instead of a database error.
 */
export default class RejectNullBytesMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    const field =
      findNul(ctx.params, '') ?? findNul(ctx.request.qs(), '') ?? findNul(ctx.request.body(), '')
    if (field) throw new FieldError(field, 'NUL characters are not allowed', 'noNullBytes')
    return next()
  }
}
