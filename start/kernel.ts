/*
| HTTP kernel: the error handler and the middleware stacks.
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'
import env from '#start/env'

server.errorHandler(() => import('#exceptions/handler'))

/**
 * Run on every request, even when no route matches (so a 404 is JSON too, and logged). No
 * container-bindings middleware: nothing here injects HttpContext or Logger through the container
 * (services take what they need as arguments), and binding them cost every request.
 */
server.use([
  () => import('#middleware/access_log_middleware'),
  () => import('#middleware/force_json_response_middleware'),
  () => import('@adonisjs/cors/cors_middleware'),
])

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
 * Assigned per route: `auth` authenticates the admin JWT (and loads the access snapshot),
 * `can` declares the permission code a route requires (checked through Bouncer).
 */
export const middleware = router.named({
  auth: () => import('#middleware/auth_middleware'),
  can: () => import('#middleware/permission_middleware'),
})
