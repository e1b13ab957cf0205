import { createHash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/**
 * The one place where queries that run on every request (the guard's user row, the access
 * snapshot, the public list, count and detail) are sent as prepared statements.
 *
 * PostgreSQL: each SQL text gets a stable name derived from its hash, and the pg driver sends it
 * as a named statement. PostgreSQL parses and plans it once per connection and then only binds
 * and executes (the snapshot CTE spent 0.4-0.7 ms planning on every request as an unnamed one).
 * Names are per server connection: behind PgBouncer in transaction mode a client may land on
 * another server connection than the one that prepared the name, so PG_PREPARED_STATEMENTS=false
 * turns naming off there (PgBouncer 1.21+ with max_prepared_statements > 0 handles names itself
 * and can keep it on). See docs/architecture.md, "What a protected request reads".
 *
 * SQLite: better-sqlite3 prepares in-process in microseconds; the query goes through Lucid.
 *
 * Queries use `?` placeholders on both databases. Inside a Lucid transaction (the test suite's
 * global transaction included) the statement runs on that transaction's connection.
 */
const NAMED = env.get('PG_PREPARED_STATEMENTS', true)

type Statement = { name: string; text: string }
const statements = new Map<string, Statement>()

/** `?` -> `$n`, once per SQL text. The texts here are ours: no `?` appears inside a literal. */
function statementFor(sql: string): Statement {
  let statement = statements.get(sql)
  if (!statement) {
    let index = 0
    const text = sql.replace(/\?/g, () => `$${++index}`)
    const name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`
    statement = { name, text }
    statements.set(sql, statement)
  }
  return statement
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

export async function preparedQuery<Row = Record<string, any>>(
  sql: string,
  bindings: unknown[],
  { client = db.connection(), named = true }: Options = {}
): Promise<Row[]> {
  if (client.dialect.name !== 'postgres') {
    return (await client.rawQuery(sql, bindings as any[])) as unknown as Row[]
  }

  const { name, text } = statementFor(sql)
  const knex = client.getReadClient()
  const started = client.debug ? process.hrtime() : undefined
  const connection = await knex.client.acquireConnection()
  try {
    const result = await connection.query(
      NAMED && named ? { name, text, values: bindings } : { text, values: bindings }
    )
    return result.rows
  } finally {
    await knex.client.releaseConnection(connection)
    // The same `db:query` event Lucid emits with `debug` on: round-trip counts in tests and bench.
    if (started) {
      client.emitter.emit('db:query', {
        connection: client.connectionName,
        inTransaction: client.isTransaction,
        method: 'raw',
        sql: text,
        bindings,
        duration: process.hrtime(started),
      } as any)
    }
  }
}
