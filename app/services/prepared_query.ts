import { createHash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/**
 * The queries that run on every request (guard row, access snapshot, public list/count/detail),
 * sent on PostgreSQL as named statements: parsed and planned once per connection. Only documented
 * APIs: knex's `.options()` hands pg its own `name`. Behind PgBouncer in transaction mode, set
 * PG_PREPARED_STATEMENTS=false (docs/architecture.md, "What a protected request reads").
 */
const NAMED = env.get('PG_PREPARED_STATEMENTS', true)

const names = new Map<string, string>()
function nameOf(sql: string) {
  let name = names.get(sql)
  if (!name) {
    name = `q_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`
    names.set(sql, name)
  }
  return name
}

type Options = {
  /** Another connection than the default one (the public module's). */
  client?: QueryClientContract
  /**
   * false: send unnamed, so PostgreSQL plans with the actual values every time. For texts whose
   * best plan depends on a value (a `%keyword%` pattern): a cached generic plan cannot see it.
   */
  named?: boolean
}

/** `?` placeholders on both databases; inside a transaction, runs on the transaction's connection. */
export async function preparedQuery<Row = Record<string, any>>(
  sql: string,
  bindings: unknown[],
  { client = db.connection(), named = true }: Options = {}
): Promise<Row[]> {
  if (client.dialect.name !== 'postgres') {
    return (await client.rawQuery(sql, bindings as any[])) as unknown as Row[]
  }
  // The read client: the replica when the connection has one (the transaction inside one).
  const query = client.getReadClient().raw(sql, bindings as any[])
  if (NAMED && named) query.options({ name: nameOf(sql) })
  const started = client.debug ? process.hrtime() : undefined
  try {
    const result = await query
    return result.rows
  } finally {
    // Lucid's own `db:query` event (knex is called directly): round-trip counts in tests and bench.
    if (started) {
      client.emitter.emit('db:query', {
        connection: client.connectionName,
        inTransaction: client.isTransaction,
        method: 'raw',
        // As PostgreSQL received it ($n placeholders): tests EXPLAIN the captured text.
        sql: query.toSQL().toNative().sql,
        bindings,
        duration: process.hrtime(started),
      } as any)
    }
  }
}
