import db from '@adonisjs/lucid/services/db'
import testUtils from '@adonisjs/core/services/test_utils'
import { forgetKnownBlocks } from '#auth/login_limiter'

/** Every application table, parents after children (the order rows are deleted in). */
const TABLES = [
  'role_menus',
  'user_roles',
  'articles',
  'menus',
  'roles',
  'users',
  'captcha_challenges',
  'captcha_tokens',
  'rate_limits',
]
const SEQUENCED = ['users', 'roles', 'menus', 'articles']
const INSERT_ORDER = ['users', 'roles', 'menus', 'user_roles', 'role_menus', 'articles']

let baseline: Record<string, any[]> | null = null

/**
 * Creates a fresh schema (drop everything, run every migration) and seeds it, then remembers the
 * seeded rows as the baseline each test starts from. Returns the teardown: rolling every
 * migration back, which proves the `down` methods on each run.
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
  baseline = {}
  for (const table of INSERT_ORDER) {
    baseline[table] = await db.from(table).select('*').orderByRaw('1')
  }
  return rollback
}

/**
 * Puts the database back to the seeded baseline with real commits (no global transaction), so
 * tests may race requests, use several connections or another process.
 */
export async function resetDatabase() {
  if (!baseline) throw new Error('prepareTestDatabase() has not run')
  forgetKnownBlocks()
  const connection = db.connection()
  const isPg = connection.dialect.name === 'postgres'
  if (isPg) {
    await db.rawQuery(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY CASCADE`)
  } else {
    for (const table of TABLES) await db.from(table).delete()
    await db.rawQuery(`DELETE FROM sqlite_sequence`).catch(() => {})
  }
  for (const table of INSERT_ORDER) {
    if (baseline[table].length) await db.table(table).multiInsert(baseline[table])
  }
  if (isPg) {
    for (const table of SEQUENCED) {
      await db.rawQuery(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM ${table}), 1), (SELECT COUNT(*) > 0 FROM ${table}))`
      )
    }
  }
}
