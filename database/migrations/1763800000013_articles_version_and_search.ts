import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * For the public article list (docs/public-modules.md, "Reading cost"):
 *
 * 1. `articles_version`: a counter and the time of the last change, bumped by triggers on every
 *    write to `articles` and on a change of an author's nickname (shown as `authorName`), the
 *    same technique as `access_version`. The list's count is cached per (filters, version) and
 *    its Last-Modified comes from `changed_at`, so raw SQL by an operator counts too.
 * 2. PostgreSQL: trigram GIN indexes on `title` and `summary` (pg_trgm), so a `%keyword%` search
 *    reads the matching rows from the index instead of scanning the table.
 */
const BUMP_PG = 'UPDATE articles_version SET version = version + 1, changed_at = now() WHERE id = 1'
const BUMP_SQLITE =
  'UPDATE articles_version SET version = version + 1, changed_at = CURRENT_TIMESTAMP WHERE id = 1'

export default class extends BaseSchema {
  async up() {
    this.schema.createTable('articles_version', (table) => {
      table.integer('id').primary()
      table.bigInteger('version').notNullable()
      table.timestamp('changed_at', { useTz: true }).notNullable()
    })
    this.defer(async (db) => {
      const isPg = db.dialect.name === 'postgres'
      await db.rawQuery(
        `INSERT INTO articles_version (id, version, changed_at) VALUES (1, 1, ${isPg ? 'now()' : 'CURRENT_TIMESTAMP'})`
      )
      if (isPg) {
        await db.rawQuery(
          `CREATE OR REPLACE FUNCTION bump_articles_version() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN ${BUMP_PG}; RETURN NULL; END $$`
        )
        await db.rawQuery(
          `CREATE TRIGGER articles_articles_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
           ON articles FOR EACH STATEMENT EXECUTE FUNCTION bump_articles_version()`
        )
        await db.rawQuery(
          `CREATE TRIGGER users_articles_version AFTER UPDATE OF nickname
           ON users FOR EACH STATEMENT EXECUTE FUNCTION bump_articles_version()`
        )
        // Trusted extension (PostgreSQL 13+): the database owner may create it.
        await db.rawQuery('CREATE EXTENSION IF NOT EXISTS pg_trgm')
        await db.rawQuery(
          'CREATE INDEX articles_title_trgm_index ON articles USING gin (title gin_trgm_ops)'
        )
        await db.rawQuery(
          'CREATE INDEX articles_summary_trgm_index ON articles USING gin (summary gin_trgm_ops)'
        )
      } else {
        for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
          await db.rawQuery(
            `CREATE TRIGGER articles_articles_version_${event.toLowerCase()} AFTER ${event}
             ON articles BEGIN ${BUMP_SQLITE}; END`
          )
        }
        await db.rawQuery(
          `CREATE TRIGGER users_articles_version AFTER UPDATE OF nickname ON users
           BEGIN ${BUMP_SQLITE}; END`
        )
      }
    })
  }

  async down() {
    this.defer(async (db) => {
      if (db.dialect.name === 'postgres') {
        await db.rawQuery('DROP INDEX IF EXISTS articles_title_trgm_index')
        await db.rawQuery('DROP INDEX IF EXISTS articles_summary_trgm_index')
        await db.rawQuery('DROP TRIGGER IF EXISTS articles_articles_version ON articles')
        await db.rawQuery('DROP TRIGGER IF EXISTS users_articles_version ON users')
        await db.rawQuery('DROP FUNCTION IF EXISTS bump_articles_version()')
      } else {
        for (const event of ['insert', 'update', 'delete']) {
          await db.rawQuery(`DROP TRIGGER IF EXISTS articles_articles_version_${event}`)
        }
        await db.rawQuery('DROP TRIGGER IF EXISTS users_articles_version')
      }
    })
    this.schema.dropTable('articles_version')
  }
}
