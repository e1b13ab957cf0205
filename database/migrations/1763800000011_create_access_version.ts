import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The access version: one counter bumped by database triggers on every insert, update, delete
 * (and truncate) of the four tables an access snapshot is computed from. Any writer counts, raw
 * SQL by an operator included, so a snapshot cached for (user, version) can never be stale: the
 * guard reads the version with the user row on every request (docs/architecture.md, "What a
 * protected request reads").
 */
const TABLES = ['roles', 'menus', 'user_roles', 'role_menus']
const BUMP = 'UPDATE access_version SET version = version + 1 WHERE id = 1'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('access_version', (table) => {
      table.integer('id').primary()
      table.bigInteger('version').notNullable()
    })
    this.defer(async (db) => {
      await db.table('access_version').insert({ id: 1, version: 1 })
      if (db.dialect.name === 'postgres') {
        await db.rawQuery(
          `CREATE OR REPLACE FUNCTION bump_access_version() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN ${BUMP}; RETURN NULL; END $$`
        )
        for (const table of TABLES) {
          await db.rawQuery(
            `CREATE TRIGGER ${table}_access_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
             ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version()`
          )
        }
      } else {
        for (const table of TABLES) {
          for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
            await db.rawQuery(
              `CREATE TRIGGER ${table}_access_version_${event.toLowerCase()} AFTER ${event} ON ${table}
               BEGIN ${BUMP}; END`
            )
          }
        }
      }
    })
  }

  async down() {
    this.defer(async (db) => {
      if (db.dialect.name === 'postgres') {
        for (const table of TABLES) {
          await db.rawQuery(`DROP TRIGGER IF EXISTS ${table}_access_version ON ${table}`)
        }
        await db.rawQuery('DROP FUNCTION IF EXISTS bump_access_version()')
      } else {
        for (const table of TABLES) {
          for (const event of ['insert', 'update', 'delete']) {
            await db.rawQuery(`DROP TRIGGER IF EXISTS ${table}_access_version_${event}`)
          }
        }
      }
    })
    this.schema.dropTable('access_version')
  }
}
