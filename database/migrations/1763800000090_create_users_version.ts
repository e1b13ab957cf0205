import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The users version: one counter bumped by triggers on every write that can change which
 * accounts the admin users list matches (app/services/admin/user_service.ts, `list`): accounts
 * added or removed, a change of the columns its filters read (account, nickname, status,
 * dept_id), role assignments (the `roleId` filter) and the department tree (the `deptId`
 * filter). The list's total is cached per (filters, version), the same technique as
 * `articles_version`: any writer counts, raw SQL included, so a total is never served for
 * another state of the table. Sign-ins and the rest of an account's columns leave it alone.
 */
const BUMP = 'UPDATE users_version SET version = version + 1 WHERE id = 1'
/** Each table, and what of it is written: PostgreSQL's statement triggers and SQLite's alike. */
const WRITES = {
  users: ['INSERT', 'UPDATE OF account, nickname, status, dept_id', 'DELETE'],
  user_roles: ['INSERT', 'UPDATE', 'DELETE'],
  depts: ['INSERT', 'UPDATE', 'DELETE'],
}

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('users_version', (table) => {
      table.integer('id').primary()
      table.bigInteger('version').notNullable()
    })
    this.defer(async (db) => {
      await db.table('users_version').insert({ id: 1, version: 1 })
      if (db.dialect.name === 'postgres') {
        await db.rawQuery(
          `CREATE OR REPLACE FUNCTION bump_users_version() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN ${BUMP}; RETURN NULL; END $$`
        )
        for (const [table, events] of Object.entries(WRITES)) {
          await db.rawQuery(
            `CREATE TRIGGER ${table}_users_version AFTER ${events.join(' OR ')} OR TRUNCATE
             ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION bump_users_version()`
          )
        }
      } else {
        for (const [table, events] of Object.entries(WRITES)) {
          for (const event of events) {
            await db.rawQuery(
              `CREATE TRIGGER ${table}_users_version_${event.split(' ')[0].toLowerCase()}
               AFTER ${event} ON ${table} BEGIN ${BUMP}; END`
            )
          }
        }
      }
    })
  }

  async down() {
    this.defer(async (db) => {
      if (db.dialect.name === 'postgres') {
        for (const table of Object.keys(WRITES)) {
          await db.rawQuery(`DROP TRIGGER IF EXISTS ${table}_users_version ON ${table}`)
        }
        await db.rawQuery('DROP FUNCTION IF EXISTS bump_users_version()')
      } else {
        for (const [table, events] of Object.entries(WRITES)) {
          for (const event of events) {
            const name = `${table}_users_version_${event.split(' ')[0].toLowerCase()}`
            await db.rawQuery(`DROP TRIGGER IF EXISTS ${name}`)
          }
        }
      }
    })
    this.schema.dropTable('users_version')
  }
}
