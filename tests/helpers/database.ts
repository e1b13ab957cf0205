import type { Group } from '@japa/runner/core'
import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import limiter from '@adonisjs/limiter/services/main'
import { forgetAll } from '#core/cache'

/**
 * Two ways a test group starts from the seeded database (docs/testing.md, "Databases and isolation"):
 *
 * - `isolate(group)`: the default. Each test runs inside a global transaction that is rolled
 *   back afterwards (Lucid's testing utilities): nothing to clean by hand, nothing to list.
 * - `withRealCommits(group)`: only where real commits are the point (races between requests,
 *   another process reading the database, proofs that a write is one transaction). Each test
 *   commits for real and the seeded baseline is restored after it.
 */
export function isolate(group: Group) {
  group.each.setup(async () => {
    await forgetLimits()
    return testUtils.db().wrapInGlobalTransaction()
  })
}

export function withRealCommits(group: Group) {
  group.each.setup(async () => {
    await forgetLimits()
    return () => resetDatabase()
  })
}

/**
 * Process state that outlives a test: the limiter's database store writes through its own knex
 * client (outside the global transaction on PostgreSQL), so its counters are cleared through the
 * limiter itself; every in-process cache is forgotten (app/core/cache.ts) because a rolled-back
 * test rewinds the database's versions, which production never does.
 */
async function forgetLimits() {
  forgetAll()
  await limiter.clear()
}

/** Tables Lucid's migrator keeps for itself. */
const MIGRATOR_TABLES = new Set(['adonis_schema', 'adonis_schema_versions'])

type Baseline = { tables: string[]; rows: Map<string, any[]> }
let baseline: Baseline | null = null

/**
 * The application's tables, parents before children (read from the foreign keys), so a new
 * table needs no edit here.
 */
async function tablesInDependencyOrder(): Promise<string[]> {
  const connection = db.connection()
  const isPg = connection.dialect.name === 'postgres'
  const tables = (await connection.getAllTables(['public'])).filter(
    (name: string) => !MIGRATOR_TABLES.has(name)
  )
  const parents = new Map<string, Set<string>>(tables.map((table) => [table, new Set()]))
  if (isPg) {
    const { rows } = await db.rawQuery(
      `SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent
         FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace`
    )
    for (const row of rows) parents.get(row.child)?.add(row.parent)
  } else {
    for (const table of tables) {
      const keys = await db.rawQuery(`PRAGMA foreign_key_list("${table}")`)
      for (const key of keys) parents.get(table)!.add(key.table)
    }
  }
  const ordered: string[] = []
  const visit = (table: string, path: Set<string>) => {
    if (ordered.includes(table) || path.has(table)) return
    path.add(table)
    for (const parent of parents.get(table) ?? []) if (parent !== table) visit(parent, path)
    ordered.push(table)
  }
  for (const table of tables.sort()) visit(table, new Set())
  return ordered
}

/**
 * Creates a fresh schema (drop everything, run every migration) and seeds it, then remembers the
 * seeded rows as the baseline. Returns the teardown: rolling every migration back, which proves
 * the `down` methods on each run.
 */
export async function prepareTestDatabase() {
  const connection = db.connection()
  if (connection.dialect.name === 'postgres') {
    await connection.dialect.dropAllTables(['public'])
  } else {
    await connection.dialect.dropAllTables()
  }
  const rollback = await testUtils.db().migrate()
  await testUtils.db().seed()
  await settleSeededAdmin()
  const tables = await tablesInDependencyOrder()
  const rows = new Map<string, any[]>()
  for (const table of tables) rows.set(table, await db.from(table).select('*').orderByRaw('1'))
  baseline = { tables, rows }
  return rollback
}

/**
 * The seeder's administrator must change its password first (createAccount): the tests sign in
 * as it to exercise everything else, so the test baseline starts with that change done. The
 * forced change itself is tested through the real paths (tests/functional/password_lifecycle.spec.ts).
 */
async function settleSeededAdmin() {
  await db.from('users').update({ password_change_required: false })
}

/** Puts the database back to the seeded baseline with real commits. */
export async function resetDatabase() {
  if (!baseline) throw new Error('prepareTestDatabase() has not run')
  forgetAll()
  const { tables, rows } = baseline
  const isPg = db.connection().dialect.name === 'postgres'
  if (isPg) {
    await db.rawQuery(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`)
  } else {
    for (const table of [...tables].reverse()) await db.from(table).delete()
    await db.rawQuery(`DELETE FROM sqlite_sequence`).catch(() => {})
  }
  for (const table of tables) {
    const seeded = rows.get(table)!
    if (seeded.length) await db.table(table).multiInsert(seeded)
  }
  if (isPg) {
    // Serial columns continue after the restored rows.
    const { rows: serials } = await db.rawQuery(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_default LIKE 'nextval(%'`
    )
    for (const { table_name: table, column_name: column } of serials) {
      await db.rawQuery(
        `SELECT setval(pg_get_serial_sequence(?, ?), GREATEST((SELECT COALESCE(MAX("${column}"), 0) FROM "${table}"), 1), (SELECT COUNT(*) > 0 FROM "${table}"))`,
        [table, column]
      )
    }
  }
}
