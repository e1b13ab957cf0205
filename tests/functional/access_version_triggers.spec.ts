import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { snapshotBindings, snapshotSqlFor } from '#auth/access_snapshot'
import { isolate } from '#tests/helpers/database'

/**
 * A cached access snapshot is used while the access version is unchanged, and the version is
 * bumped by triggers (migration 1763800000011). So every table the snapshot statement reads must
 * carry the trigger, for every kind of write; a table added to the statement without one would
 * serve stale permissions until the next unrelated write. This guard reads the tables out of the
 * statement itself and the triggers out of the database's catalogue.
 */

/** The counter the snapshot is tagged with: read by the statement, bumped by the triggers. */
const VERSION_TABLE = 'access_version'

/** The tables a statement reads: the names after FROM and JOIN, minus its own CTEs. */
function tablesRead(sql: string): string[] {
  const ctes = new Set(
    [...sql.matchAll(/(?:\bWITH(?:\s+RECURSIVE)?|,)\s*([A-Za-z_]\w*)\s+AS\s*\(/gi)].map((match) =>
      match[1].toLowerCase()
    )
  )
  const names = [...sql.matchAll(/\b(?:FROM|JOIN)\s+([A-Za-z_]\w*)/gi)].map((match) =>
    match[1].toLowerCase()
  )
  return [...new Set(names)].filter((name) => !ctes.has(name)).sort()
}

/**
 * The tables the database itself opens to run the statement (its plan), to check the parser
 * above against: PostgreSQL's EXPLAIN names each relation; SQLite's bytecode opens each table or
 * index by its root page.
 */
async function tablesPlanned(client: QueryClientContract, sql: string): Promise<string[]> {
  const bindings = snapshotBindings(1, 1)
  if (client.dialect.name === 'postgres') {
    const { rows } = await client.rawQuery(`EXPLAIN (FORMAT JSON) ${sql}`, bindings)
    const found = new Set<string>()
    const walk = (node: any) => {
      if (node['Relation Name']) found.add(node['Relation Name'])
      for (const child of node.Plans ?? []) walk(child)
    }
    walk(rows[0]['QUERY PLAN'][0].Plan)
    return [...found].sort()
  }
  const program = await client.rawQuery(`EXPLAIN ${sql}`, bindings)
  const pages = new Set<number>(
    program
      .filter((op: any) => op.opcode === 'OpenRead' && op.p3 === 0)
      .map((op: any) => Number(op.p2))
  )
  const objects = await client.rawQuery(`SELECT tbl_name, rootpage FROM sqlite_master`)
  return [
    ...new Set<string>(
      objects.filter((o: any) => pages.has(Number(o.rootpage))).map((o: any) => o.tbl_name)
    ),
  ].sort()
}

/** The bump every trigger must do (the triggers' body, or PostgreSQL's trigger function). */
const BUMPS = /UPDATE\s+access_version\s+SET\s+version\s*=\s*version\s*\+\s*1/i

/** Per table: the write events whose trigger bumps the access version. */
async function bumpingEvents(client: QueryClientContract): Promise<Map<string, Set<string>>> {
  const events = new Map<string, Set<string>>()
  const add = (table: string, event: string) => {
    if (!events.has(table)) events.set(table, new Set())
    events.get(table)!.add(event)
  }
  if (client.dialect.name === 'postgres') {
    // tgtype bits (pg_trigger.h): INSERT 4, DELETE 8, UPDATE 16, TRUNCATE 32.
    const { rows } = await client.rawQuery(
      `SELECT c.relname AS table_name, t.tgtype, p.prosrc
         FROM pg_trigger t
         JOIN pg_class c ON c.oid = t.tgrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' AND n.nspname = current_schema()`
    )
    for (const row of rows) {
      if (!BUMPS.test(row.prosrc)) continue
      for (const [bit, event] of [
        [4, 'INSERT'],
        [8, 'DELETE'],
        [16, 'UPDATE'],
        [32, 'TRUNCATE'],
      ] as const) {
        if ((row.tgtype & bit) !== 0) add(row.table_name, event)
      }
    }
    return events
  }
  const triggers = await client.rawQuery(
    `SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'`
  )
  for (const trigger of triggers) {
    // `AFTER UPDATE OF column ON` would miss the other columns: only a whole-row event counts.
    const event = /\b(?:AFTER|BEFORE)\s+(INSERT|UPDATE|DELETE)\s+ON\b/i.exec(trigger.sql)?.[1]
    if (event && BUMPS.test(trigger.sql)) add(trigger.tbl_name, event.toUpperCase())
  }
  return events
}

/** What is missing: one line per table and write event the version does not follow. */
async function missingTriggers(client: QueryClientContract, sql: string): Promise<string[]> {
  const required =
    client.dialect.name === 'postgres'
      ? ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']
      : ['INSERT', 'UPDATE', 'DELETE']
  const events = await bumpingEvents(client)
  const problems: string[] = []
  for (const table of tablesRead(sql)) {
    if (table === VERSION_TABLE) continue
    for (const event of required) {
      if (!events.get(table)?.has(event)) {
        problems.push(`${table}: no access-version trigger on ${event}`)
      }
    }
  }
  return problems
}

test.group('Access version: every table of the snapshot has its trigger', (group) => {
  isolate(group)

  const sql = () => snapshotSqlFor(db.connection().dialect.name)

  test('the tables are read out of the snapshot statement, as the database plans it', async ({
    assert,
  }) => {
    const tables = tablesRead(sql())
    assert.includeMembers(tables, [
      'menus',
      'role_menus',
      'roles',
      'user_roles',
      'depts',
      'role_depts',
      VERSION_TABLE,
    ])
    assert.notInclude(tables, 'granted')
    assert.notInclude(tables, 'effective')
    // Everything the database opens to run it is seen by the parser.
    const planned = await tablesPlanned(db.connection(), sql())
    assert.isNotEmpty(planned)
    assert.includeMembers(tables, planned)
  })

  test('each of them bumps the access version on every kind of write', async ({ assert }) => {
    assert.deepEqual(await missingTriggers(db.connection(), sql()), [])
  })

  test('the guard reports a dropped trigger, and a table read without one', async ({ assert }) => {
    const isPg = db.connection().dialect.name === 'postgres'
    const trx = await db.transaction()
    try {
      await trx.rawQuery(
        isPg
          ? 'DROP TRIGGER role_menus_access_version ON role_menus'
          : 'DROP TRIGGER role_menus_access_version_delete'
      )
      const problems = await missingTriggers(trx, sql())
      if (isPg) {
        assert.sameMembers(
          problems,
          ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'].map(
            (event) => `role_menus: no access-version trigger on ${event}`
          )
        )
      } else {
        assert.deepEqual(problems, ['role_menus: no access-version trigger on DELETE'])
      }
    } finally {
      await trx.rollback()
    }
    // Rolled back: the trigger is there again.
    assert.deepEqual(await missingTriggers(db.connection(), sql()), [])

    // A table joined into the statement without a trigger of its own.
    const widened = `${sql()} AND EXISTS (SELECT 1 FROM users u WHERE u.id = ?)`
    assert.include(tablesRead(widened), 'users')
    assert.sameMembers(
      (await missingTriggers(db.connection(), widened)).filter((line) => line.startsWith('users')),
      (isPg ? ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] : ['INSERT', 'UPDATE', 'DELETE']).map(
        (event) => `users: no access-version trigger on ${event}`
      )
    )
  })
})
