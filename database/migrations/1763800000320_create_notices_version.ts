import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The notices bell's versions (app/services/own_notice_service.ts), the technique of
 * `users_version`: triggers on every write (any writer, raw SQL included) bump `version` for
 * `notices` and `reads_version` for `notice_reads`. The visible notices are held rendered under
 * the first, each reader's answer under both, so a new, edited, deleted or read notice shows on
 * the next request.
 */
const BUMPS = { notices: 'version', notice_reads: 'reads_version' }
const EVENTS = ['INSERT', 'UPDATE', 'DELETE']
const bump = (column: string) => `UPDATE notices_version SET ${column} = ${column} + 1 WHERE id = 1`

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('notices_version', (table) => {
      table.integer('id').primary()
      table.bigInteger('version').notNullable()
      table.bigInteger('reads_version').notNullable()
    })
    this.defer(async (db) => {
      await db.table('notices_version').insert({ id: 1, version: 1, reads_version: 1 })
      for (const [table, column] of Object.entries(BUMPS)) {
        if (db.dialect.name === 'postgres') {
          await db.rawQuery(
            `CREATE OR REPLACE FUNCTION bump_${table}_version() RETURNS trigger LANGUAGE plpgsql
             AS $$ BEGIN ${bump(column)}; RETURN NULL; END $$`
          )
          await db.rawQuery(
            `CREATE TRIGGER ${table}_notices_version AFTER ${EVENTS.join(' OR ')} OR TRUNCATE
             ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION bump_${table}_version()`
          )
        } else {
          for (const event of EVENTS) {
            await db.rawQuery(
              `CREATE TRIGGER ${table}_notices_version_${event.toLowerCase()}
               AFTER ${event} ON ${table} BEGIN ${bump(column)}; END`
            )
          }
        }
      }
    })
  }

  async down() {
    this.defer(async (db) => {
      for (const table of Object.keys(BUMPS)) {
        if (db.dialect.name === 'postgres') {
          await db.rawQuery(`DROP TRIGGER IF EXISTS ${table}_notices_version ON ${table}`)
          await db.rawQuery(`DROP FUNCTION IF EXISTS bump_${table}_version()`)
        } else {
          for (const event of EVENTS) {
            await db.rawQuery(
              `DROP TRIGGER IF EXISTS ${table}_notices_version_${event.toLowerCase()}`
            )
          }
        }
      }
    })
    this.schema.dropTable('notices_version')
  }
}
