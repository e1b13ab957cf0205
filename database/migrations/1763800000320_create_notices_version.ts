import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The notices version: one counter bumped by triggers on every write of `notices` (any writer,
 * raw SQL included), the technique of `users_version`. The notices bell (GET /api/auth/notices)
 * holds the visible notices, rendered, under it (app/services/own_notice_service.ts), so a new,
 * edited or deleted notice shows on the next request. Read state (`notice_reads`) is per reader
 * and read on every request: it needs no version.
 */
const BUMP = 'UPDATE notices_version SET version = version + 1 WHERE id = 1'
const EVENTS = ['INSERT', 'UPDATE', 'DELETE']

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('notices_version', (table) => {
      table.integer('id').primary()
      table.bigInteger('version').notNullable()
    })
    this.defer(async (db) => {
      await db.table('notices_version').insert({ id: 1, version: 1 })
      if (db.dialect.name === 'postgres') {
        await db.rawQuery(
          `CREATE OR REPLACE FUNCTION bump_notices_version() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN ${BUMP}; RETURN NULL; END $$`
        )
        await db.rawQuery(
          `CREATE TRIGGER notices_notices_version AFTER ${EVENTS.join(' OR ')} OR TRUNCATE
           ON notices FOR EACH STATEMENT EXECUTE FUNCTION bump_notices_version()`
        )
      } else {
        for (const event of EVENTS) {
          await db.rawQuery(
            `CREATE TRIGGER notices_notices_version_${event.toLowerCase()}
             AFTER ${event} ON notices BEGIN ${BUMP}; END`
          )
        }
      }
    })
  }

  async down() {
    this.defer(async (db) => {
      if (db.dialect.name === 'postgres') {
        await db.rawQuery('DROP TRIGGER IF EXISTS notices_notices_version ON notices')
        await db.rawQuery('DROP FUNCTION IF EXISTS bump_notices_version()')
      } else {
        for (const event of EVENTS) {
          await db.rawQuery(`DROP TRIGGER IF EXISTS notices_notices_version_${event.toLowerCase()}`)
        }
      }
    })
    this.schema.dropTable('notices_version')
  }
}
