/*
| HTTP kernel: the error handler and the middleware stacks.
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'
import { type HttpContext, HttpRequest, RequestValidator } from '@adonisjs/core/http'
import type { MessagesProviderContact } from '@vinejs/vine/types'
import { errors as vineErrors } from '@vinejs/vine'
import { bodyShapeProblems } from '#core/body_shape'
import { i18nOf, localeOf, messageOf } from '#exceptions/messages'
import env from '#start/env'
import { corsOrigins } from '#config/cors'
import { callDirectly } from '#core/direct_calls'
import { parsePlainPairsFirst } from '#core/query_string'
import { deferRequestLoggers } from '#core/request_logger'

server.errorHandler(() => import('#exceptions/handler'))

/** Query strings of plain `key=value` pairs parsed without the framework's Qs (app/core/query_string.ts). */
parsePlainPairsFirst(router)
/** Each request's logger child made on its first line, not on every request (app/core/request_logger.ts). */
deferRequestLoggers(server)

/**
 * Validation messages in the caller's language (resources/lang/<locale>/validator.json), its
 * language and catalog looked up on the first message: a request that validates pays nothing.
 */
class CallerMessages implements MessagesProviderContact {
  #ctx: HttpContext
  #provider?: MessagesProviderContact
  constructor(ctx: HttpContext) {
    this.#ctx = ctx
  }
  getMessage(...args: Parameters<MessagesProviderContact['getMessage']>) {
    this.#provider ??= i18nOf(this.#ctx).createMessagesProvider()
    return this.#provider.getMessage(...args)
  }
}
RequestValidator.messagesProvider = (ctx) => new CallerMessages(ctx)

/**
 * `request.validateUsing` holds the body to the shape its validator declares too (unknown keys,
 * null, a non-object body: app/core/body_shape.ts); one 422 lists those problems and VineJS's for
 * the other fields. It runs where the action validates, after authentication, so a caller
 * without a token still gets its 401. A validation of given `data` (a query string, a param) is
 * VineJS's alone.
 */
HttpRequest.macro('validateUsing', async function (
  this: HttpRequest,
  validator: any,
  options?: any
) {
  const validating = new RequestValidator(this.ctx!).validateUsing(validator, options)
  const problems = options?.data ? [] : bodyShapeProblems(validator, this.body())
  if (problems.length === 0) return validating
  const others: { field: string }[] = await validating.then(
    () => [],
    (error) => {
      if (error instanceof vineErrors.E_VALIDATION_ERROR) return error.messages
      throw error // a data-store error in an async rule is no validation answer
    }
  )
  const locale = localeOf(this.ctx!)
  const named = new Set(problems.map((problem) => problem.field))
  throw new vineErrors.E_VALIDATION_ERROR([
    ...problems.map(({ field, key, rule }) => ({
      field,
      rule,
      message: messageOf(key, { field }, locale),
    })),
    ...(problems[0].rule === 'object' ? [] : others.filter((entry) => !named.has(entry.field))),
  ])
} as any)

/**
 * Run on every request, even when no route matches (so a 404 is logged too). Each middleware here
 * costs every request (~0.01 ms of CPU), so only what every request needs:
 * - no container-bindings middleware: nothing injects HttpContext or Logger through the container
 *   (services take what they need as arguments);
 * - no force-JSON middleware: the error handler renders every error as JSON itself, whatever the
 *   Accept header says (app/exceptions/handler.ts); other answers have the type their route sets;
 * - CORS only where CORS_ORIGINS lists origins (none by default: the console is served from the
 *   API's own origin). Without it a cross-origin browser gets no Access-Control-* header, as the
 *   CORS middleware with an empty list answered, and its preflight is an unmatched 404.
 */
server.use([() => import('#middleware/access_log_middleware')])
if (corsOrigins.length > 0) server.use([() => import('@adonisjs/cors/cors_middleware')])

/**
 * Benchmark diagnostics: an `x-db-queries` header with the number of SQL queries of the request.
 */
if (env.get('DB_QUERY_EVENTS', false)) {
  server.use([() => import('#middleware/query_count_middleware')])
}

/**
 * Run on every request that matched a route: the body parsed (methods with a body only) and
 * checked. ctx.auth and ctx.bouncer are created on first use (app/auth/request_context.ts).
 */
router.use([() => import('#middleware/request_input_middleware')])
await import('#auth/request_context')

/**
 * Middleware and controllers are called without the container where it would only construct them
 * (app/core/direct_calls.ts): once the server's boot has committed the routes, the one moment
 * every descriptor exists, in production and in the tests alike.
 */
const commit = router.commit.bind(router)
router.commit = () => {
  commit()
  callDirectly(server, router)
}

/**
 * Assigned per route: `auth` authenticates the admin JWT (and loads the access snapshot),
 * `can` declares the permission code a route requires (checked through Bouncer).
 */
export const middleware = router.named({
  auth: () => import('#middleware/auth_middleware'),
  can: () => import('#middleware/permission_middleware'),
})
