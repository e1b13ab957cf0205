import { AsyncLocalStorage } from 'node:async_hooks'
import emitter from '@adonisjs/core/services/emitter'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

const counter = new AsyncLocalStorage<{ queries: number }>()
let listening = false

/**
 * Diagnostics for the benchmark (registered only when DB_QUERY_EVENTS=true): counts the SQL
 * queries each request runs, attributing db:query events to the request through
 * AsyncLocalStorage, and reports the count in an `x-db-queries` response header.
 */
export default class QueryCountMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (!listening) {
      listening = true
      emitter.on('db:query', () => {
        const store = counter.getStore()
        if (store) store.queries++
      })
    }
    const store = { queries: 0 }
    await counter.run(store, () => next())
    ctx.response.header('x-db-queries', String(store.queries))
  }
}
