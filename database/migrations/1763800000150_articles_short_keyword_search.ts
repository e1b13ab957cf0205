import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * PostgreSQL: 1- and 2-character keywords (a Chinese word is often two characters) for the
 * public article search (docs/public-modules.md, "Keyword search"). A trigram index cannot serve
 * a keyword shorter than a trigram, so `articles.search_grams` holds the distinct lower-cased
 * characters and character pairs of the title and the summary, a generated column that every
 * writer keeps current (raw SQL included), read through a GIN index with `@>`. The `ILIKE` of
 * every search stays as the exact check.
 *
 * Pairs never span title and summary, nor hold a space, tab or line break (a trimmed keyword of
 * one or two characters holds none): those become line breaks, which end pairs. Built from C
 * functions only (split per character, cut into pairs from the first and from the second
 * character, sorted and deduplicated through a tsvector): a SQL `array_agg(DISTINCT ...)` over
 * `generate_series` cost about 3 times as much per row.
 *
 * SQLite: nothing (its search is a plain scan; it is the small-data default).
 */
const GRAMS = `CREATE OR REPLACE FUNCTION article_search_grams(title text, summary text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT tsvector_to_array(array_to_tsvector(array_remove(array_remove(
             regexp_split_to_array(t, '')
             || string_to_array(regexp_replace(t, '(..)', E'\\\\1\\n', 'g'), E'\\n')
             || string_to_array(regexp_replace(substr(t, 2), '(..)', E'\\\\1\\n', 'g'), E'\\n'),
           ''), E'\\n')))
      FROM translate(lower(title || E'\\n' || summary), E' \\t\\r', E'\\n\\n\\n') AS t
  $$`

export default class extends BaseSchema {
  async up() {
    this.defer(async (db) => {
      if (db.dialect.name !== 'postgres') return
      await db.rawQuery(GRAMS)
      // Rewrites the table once (36 s for 100,000 rows on a busy 2-vCPU machine).
      await db.rawQuery(
        `ALTER TABLE articles ADD COLUMN search_grams text[] NOT NULL
           GENERATED ALWAYS AS (article_search_grams(title, summary)) STORED`
      )
      await db.rawQuery(
        'CREATE INDEX articles_search_grams_index ON articles USING gin (search_grams)'
      )
    })
  }

  async down() {
    this.defer(async (db) => {
      if (db.dialect.name !== 'postgres') return
      await db.rawQuery('ALTER TABLE articles DROP COLUMN IF EXISTS search_grams')
      await db.rawQuery('DROP FUNCTION IF EXISTS article_search_grams(text, text)')
    })
  }
}
