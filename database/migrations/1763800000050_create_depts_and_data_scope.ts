import { BaseSchema } from '@adonisjs/lucid/schema'
import { DateTime } from 'luxon'

/**
 * Departments and data scope (docs/architecture.md, "Departments and data scope").
 *
 * - `depts`: the department tree, with one root department created here ("Head office"): every
 *   existing account is placed in it, so current installs keep one consistent tree.
 * - `users.dept_id`: nullable. An account without a department is seen only by callers whose
 *   scope is `all` (and by itself under `self`); a non-super caller must always name one of the
 *   departments it sees when it creates or moves an account.
 * - `roles.data_scope`: `all | dept_and_children | dept | self | custom`. The column default is
 *   `all`, which is what every role meant before departments existed, so an existing install
 *   (its roles, and rows written by raw SQL or old scripts) behaves exactly as before. The API
 *   gives a new role `self` when the request names none (least privilege, and always within
 *   the caller's own scope).
 * - `role_depts`: the departments of a `custom` role.
 *
 * The access snapshot reads depts and role_depts (the caller's scope, dept_and_children walking
 * the tree), so both carry the access-version triggers of migration 1763800000011: a department
 * move or a custom-scope change applies on the next request of every instance. The caller's own
 * dept_id comes with the guard's row and keys the cached snapshot (app/auth/access_snapshot.ts).
 */
const TABLES = ['depts', 'role_depts']
const BUMP = 'UPDATE access_version SET version = version + 1 WHERE id = 1'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('depts', (table) => {
      table.increments('id')
      // No cascade: a department with children or members cannot be deleted (the service says
      // 409 first; the key is the last fence).
      table.integer('parent_id').unsigned().nullable().references('depts.id')
      table.string('name', 64).notNullable()
      table.integer('sort').notNullable().defaultTo(0)
      table.string('status', 16).notNullable().defaultTo('enabled')
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.index(['parent_id'])
    })
    this.schema.createTable('role_depts', (table) => {
      table.integer('role_id').unsigned().notNullable().references('roles.id').onDelete('CASCADE')
      table.integer('dept_id').unsigned().notNullable().references('depts.id').onDelete('CASCADE')
      table.primary(['role_id', 'dept_id'])
      table.index(['dept_id'])
    })
    this.defer(async (db) => {
      // Plain ALTER TABLE on both databases: knex would rebuild the SQLite table to add a key.
      await db.rawQuery('ALTER TABLE users ADD COLUMN dept_id INTEGER NULL REFERENCES depts (id)')
      await db.rawQuery('CREATE INDEX users_dept_id_index ON users (dept_id)')
      await db.rawQuery(
        "ALTER TABLE roles ADD COLUMN data_scope VARCHAR(32) NOT NULL DEFAULT 'all'"
      )
      // In the connection's own date format, as Lucid writes and reads it.
      const now = DateTime.utc().toFormat(db.dialect.dateTimeFormat)
      const [root] = await db
        .table('depts')
        .insert({
          parent_id: null,
          name: 'Head office',
          sort: 0,
          status: 'enabled',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
      const rootId = typeof root === 'object' ? root.id : root
      await db.from('users').update({ dept_id: rootId })

      if (db.dialect.name === 'postgres') {
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
      await db.rawQuery('DROP INDEX IF EXISTS users_dept_id_index')
      await db.rawQuery('ALTER TABLE users DROP COLUMN dept_id')
      await db.rawQuery('ALTER TABLE roles DROP COLUMN data_scope')
    })
    // The triggers go with their tables.
    this.schema.dropTable('role_depts')
    this.schema.dropTable('depts')
  }
}
