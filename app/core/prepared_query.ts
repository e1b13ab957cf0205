import { createHash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { cache } from '#core/cache'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/**
 * The queries that run on every request (guard row, access snapshot, public list/count/detail),
 * sent on PostgreSQL as named statements: parsed and planned once per connection. Inside a
 * transaction through documented APIs (knex's `.options()` hands pg its `name`); outside one
 * through knex's internal pool API (`acquireConnection`/`releaseConnection` of its client, not a
 * documented API: a knex upgrade must keep the suites green here), skipping the query builder and
 * runner, a fifth of these statements' CPU. Behind PgBouncer in transaction mode, set
 * PG_PREPARED_STATEMENTS=false (docs/architecture.md, "What a protected request reads").
 */
const NAMED = env.get('PG_PREPARED_STATEMENTS', true)

/** Texts are the code's own, but a few are built per number of values (blockedUntilMany). */
const names = cache<string, string>('statement-names', { max: 2000 })
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
  /** pg's type parsers for this statement's columns (pg's `types` query option). */
  types?: { getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown }
}

/** A `?` text as PostgreSQL takes it ($1, $2 ...), computed once per text. */
const nativeTexts = cache<string, { text: string; placeholders: number }>('native-texts', {
  max: 2000,
})
function nativeOf(sql: string) {
  let native = nativeTexts.get(sql)
  if (!native) {
    let placeholders = 0
    const text = sql.replace(/\?/g, () => `$${++placeholders}`)
    native = { text, placeholders }
    nativeTexts.set(sql, native)
  }
  return native
}

/**
 * `?` placeholders on both databases; inside a transaction, runs on the transaction's connection.
 * On PostgreSQL outside a transaction the statement goes to a pooled pg client of the connection
 * (knex's own pool, its connection settings included) without knex's query builder and runner:
 * these statements are fixed texts with scalar values, and the builder was a fifth of their CPU.
 */
export async function preparedQuery<Row = Record<string, any>>(
  sql: string,
  bindings: unknown[],
  { client = db.connection(), named = true, types }: Options = {}
): Promise<Row[]> {
  if (client.dialect.name !== 'postgres') {
    return (await client.rawQuery(sql, bindings as any[])) as unknown as Row[]
  }
  const native = nativeOf(sql)
  if (native.placeholders !== bindings.length || bindings.some(Array.isArray)) {
    throw new Error('preparedQuery takes one scalar value per ? placeholder')
  }
  const config = {
    text: native.text,
    values: bindings,
    name: NAMED && named ? nameOf(sql) : undefined,
    types,
  }
  const started = client.debug ? process.hrtime() : undefined
  try {
    if (client.isTransaction) {
      const query = client.getReadClient().raw(sql, bindings as any[])
      if (config.name || types) query.options({ name: config.name, types })
      const { rows } = await query
      return rows
    }
    // The read client: the replica when the connection has one.
    const pool = (client.getReadClient() as unknown as { client: PooledClient }).client
    const connection = await pool.acquireConnection()
    try {
      // pg's callback API, as knex's runner and pg.Pool call it, not its promise API (no
      // callback): with that one each query's objects, and the request awaiting them, outlived
      // two scavenges under load and were promoted (~2 KB per /me request of old-space garbage,
      // docs/performance.md, "What fills the old space under load").
      return await new Promise<Row[]>((resolve, reject) =>
        connection.query(config, (error, result) => (error ? reject(error) : resolve(result.rows)))
      )
    } finally {
      // Released synchronously (knex answers with an already resolved promise): not awaited, so
      // the rows come back a microtask sooner.
      void pool.releaseConnection(connection)
    }
  } finally {
    // Lucid's own `db:query` event: round-trip counts in tests and bench.
    if (started) {
      client.emitter.emit('db:query', {
        connection: client.connectionName,
        inTransaction: client.isTransaction,
        method: 'raw',
        // As PostgreSQL received it ($n placeholders): tests EXPLAIN the captured text.
        sql: native.text,
        bindings,
        duration: process.hrtime(started),
      } as any)
    }
  }
}

/** knex's client of a connection: its pool of pg clients (tarn), used as knex's runner uses it. */
type PooledClient = {
  acquireConnection(): Promise<{
    query(config: object, done: (error: Error | null, result: { rows: any[] }) => void): void
  }>
  releaseConnection(connection: object): Promise<void>
}
