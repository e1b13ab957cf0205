import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Back-office modules (docs/admin-modules.md, "Back-office modules"): dictionaries, parameters,
 * notices and their read state.
 *
 * `settings_version` is a counter bumped by triggers on every write (and truncate) of
 * `dict_types`, `dict_items` and `params`, the technique of `access_version`: the answers of
 * `GET /api/dicts/:code` and `GET /api/params/:key` are cached per process for the version the
 * database holds, so a write by any instance, command or raw SQL shows on the next request of
 * every instance (app/services/settings_cache.ts).
 */
const TABLES = ['dict_types', 'dict_items', 'params']
const BUMP = 'UPDATE settings_version SET version = version + 1 WHERE id = 1'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('settings_version', (table) => {
      table.integer('id').primary()
      table.bigInteger('version').notNullable()
    })
    this.schema.createTable('dict_types', (table) => {
      table.increments('id')
      table.string('code', 64).notNullable().unique()
      table.string('name', 64).notNullable()
      table.string('status', 16).notNullable().defaultTo('enabled')
      table.string('remark', 255).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })
    this.schema.createTable('dict_items', (table) => {
      table.increments('id')
      // A type's code never changes (the API does not re-code), its items go with it.
      table.string('type_code', 64).notNullable().references('dict_types.code').onDelete('CASCADE')
      table.string('label', 64).notNullable()
      table.string('value', 64).notNullable()
      table.integer('sort').notNullable().defaultTo(0)
      table.string('status', 16).notNullable().defaultTo('enabled')
      table.string('css_class', 64).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.unique(['type_code', 'value'])
    })
    this.schema.createTable('params', (table) => {
      table.increments('id')
      table.string('key', 100).notNullable().unique()
      table.text('value').notNullable()
      table.string('type', 16).notNullable()
      table.boolean('is_system').notNullable().defaultTo(false)
      table.boolean('is_public').notNullable().defaultTo(false)
      table.string('remark', 255).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })
    this.schema.createTable('notices', (table) => {
      table.increments('id')
      table.string('title', 128).notNullable()
      table.text('body').notNullable()
      table.string('level', 16).notNullable().defaultTo('info')
      table.string('status', 16).notNullable().defaultTo('draft')
      table.timestamp('published_at', { useTz: true }).nullable()
      table.integer('author_id').unsigned().nullable().references('users.id').onDelete('SET NULL')
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
      table.index(['status', 'published_at'])
    })
    this.schema.createTable('notice_reads', (table) => {
      table
        .integer('notice_id')
        .unsigned()
        .notNullable()
        .references('notices.id')
        .onDelete('CASCADE')
      table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE')
      table.timestamp('read_at', { useTz: true }).notNullable()
      table.primary(['user_id', 'notice_id'])
    })
    this.defer(async (db) => {
      await db.table('settings_version').insert({ id: 1, version: 1 })
      if (db.dialect.name === 'postgres') {
        await db.rawQuery(
          `CREATE OR REPLACE FUNCTION bump_settings_version() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN ${BUMP}; RETURN NULL; END $$`
        )
        for (const table of TABLES) {
          await db.rawQuery(
            `CREATE TRIGGER ${table}_settings_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
             ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION bump_settings_version()`
          )
        }
      } else {
        for (const table of TABLES) {
          for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
            await db.rawQuery(
              `CREATE TRIGGER ${table}_settings_version_${event.toLowerCase()} AFTER ${event}
               ON ${table} BEGIN ${BUMP}; END`
            )
          }
        }
      }
    })
  }

  async down() {
    this.schema.dropTable('notice_reads')
    this.schema.dropTable('notices')
    this.schema.dropTable('params')
    this.schema.dropTable('dict_items')
    this.schema.dropTable('dict_types')
    this.schema.dropTable('settings_version')
    this.defer(async (db) => {
      if (db.dialect.name === 'postgres') {
        await db.rawQuery('DROP FUNCTION IF EXISTS bump_settings_version()')
      }
    })
  }
}
