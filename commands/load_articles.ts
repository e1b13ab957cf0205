import { DateTime } from 'luxon'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import type { Database } from '@adonisjs/lucid/database'

const COLUMNS = [
  'slug',
  'title',
  'summary',
  'content',
  'category',
  'cover_url',
  'status',
  'published_at',
  'author_id',
  'internal_note',
  'created_at',
  'updated_at',
] as const

/** Rows per statement: PostgreSQL generates a chunk server-side; SQLite binds 12 values per row. */
const PG_CHUNK = 100_000
const SQLITE_BATCH = 1000

export type LoadOptions = {
  truncate?: boolean
  /** Articles share a publication second in groups of this size, to exercise the id tie-breaker. */
  sameSecond?: number
  onProgress?: (loaded: number) => void
}

/**
 * Loads `count` published, already-due articles as fast as each dialect allows: INSERT ... SELECT
 * over generate_series on PostgreSQL (no row crosses the wire), batched multi-row inserts in one
 * transaction on SQLite. Slugs carry a per-run tag, so loads can be repeated without --truncate.
 * Exported for the tests, which need more rows than the public page window.
 */
export async function loadArticles(db: Database, count: number, options: LoadOptions = {}) {
  // Lazy: ace may load this file before the app (and Lucid's models) have booted.
  const { ARTICLE_CATEGORIES } = await import('#models/article')
  const connection = db.connection()
  const isPg = connection.dialect.name === 'postgres'
  const sameSecond = Math.max(1, options.sameSecond ?? 3)
  const tag = Date.now().toString(36)
  // Everything is published a little in the past, newest first by row number. The first user
  // (the seeded administrator) is the author.
  const base = DateTime.utc().minus({ minutes: 1 }).startOf('second')

  if (options.truncate) {
    if (isPg) await connection.rawQuery('TRUNCATE articles RESTART IDENTITY')
    else await connection.from('articles').delete()
  }

  if (isPg) {
    for (let start = 1; start <= count; start += PG_CHUNK) {
      const end = Math.min(count, start + PG_CHUNK - 1)
      await connection.rawQuery(
        `INSERT INTO articles (${COLUMNS.join(', ')})
         SELECT 'load-' || ? || '-' || g,
                'Article ' || g,
                'Summary of article ' || g,
                'Content of article ' || g,
                (?::text[])[1 + g % ?],
                NULL,
                'published',
                ?::timestamptz - (g / ?) * interval '1 second',
                (SELECT id FROM users ORDER BY id LIMIT 1),
                'loaded by articles:load',
                ?::timestamptz - (g / ?) * interval '1 second',
                ?::timestamptz - (g / ?) * interval '1 second'
           FROM generate_series(?::int, ?::int) AS g`,
        [
          tag,
          [...ARTICLE_CATEGORIES],
          ARTICLE_CATEGORIES.length,
          base.toISO(),
          sameSecond,
          base.toISO(),
          sameSecond,
          base.toISO(),
          sameSecond,
          start,
          end,
        ]
      )
      options.onProgress?.(end)
    }
    // Fresh statistics for the planner and a visibility map for index-only counts.
    await connection.rawQuery('VACUUM ANALYZE articles')
    return count
  }

  // SQLite compares dates as text: they must be written in the dialect's own format.
  const format = connection.dialect.dateTimeFormat
  // Formatting a luxon date per row dominated the load; one string per distinct second is enough.
  let cached: [number, string] = [-1, '']
  const stamp = (secondsBack: number) => {
    if (cached[0] !== secondsBack) {
      cached = [secondsBack, base.minus({ seconds: secondsBack }).toFormat(format)]
    }
    return cached[1]
  }
  const author = await connection.from('users').orderBy('id').select('id').first()
  const authorId: number | null = author?.id ?? null
  // One multi-row VALUES statement per batch (knex's own SQLite multi-insert is a UNION ALL
  // chain, slower and capped at 500 terms). 1,000 rows x 12 values stays under SQLite's 32,766.
  const statement = (rows: number) =>
    `INSERT INTO articles (${COLUMNS.join(', ')}) VALUES ` +
    Array.from({ length: rows }, () => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ')
  const fullBatch = statement(SQLITE_BATCH)
  await connection.transaction(async (trx) => {
    for (let start = 1; start <= count; start += SQLITE_BATCH) {
      const end = Math.min(count, start + SQLITE_BATCH - 1)
      const values: (string | number | null)[] = []
      for (let g = start; g <= end; g++) {
        const at = stamp(Math.floor(g / sameSecond))
        values.push(
          `load-${tag}-${g}`,
          `Article ${g}`,
          `Summary of article ${g}`,
          `Content of article ${g}`,
          ARTICLE_CATEGORIES[g % ARTICLE_CATEGORIES.length],
          null,
          'published',
          at,
          authorId,
          'loaded by articles:load',
          at,
          at
        )
      }
      const rows = end - start + 1
      await trx.rawQuery(rows === SQLITE_BATCH ? fullBatch : statement(rows), values as any[])
      options.onProgress?.(end)
    }
  })
  await connection.rawQuery('ANALYZE articles')
  return count
}

/**
 * node ace articles:load --count 1000000 [--truncate]
 *
 * Bulk-loads published articles for the benchmark of the public list (10,000 and 1,000,000 rows).
 */
export default class LoadArticles extends BaseCommand {
  static commandName = 'articles:load'
  static description = 'Bulk-load N published articles (benchmark data)'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'How many articles to load', default: 10_000 })
  declare count: number

  @flags.boolean({ description: 'Delete every existing article first' })
  declare truncate?: boolean

  async run() {
    if (!Number.isInteger(this.count) || this.count < 1) {
      this.logger.error('--count must be a positive integer')
      this.exitCode = 1
      return
    }
    if (this.truncate && this.app.inProduction) {
      this.logger.error('--truncate deletes every article; refusing in production')
      this.exitCode = 1
      return
    }
    const { default: db } = await import('@adonisjs/lucid/services/db')
    const started = performance.now()
    let reported = 0
    await loadArticles(db, this.count, {
      truncate: this.truncate,
      onProgress: (loaded) => {
        if (loaded - reported >= 100_000 || loaded === this.count) {
          reported = loaded
          this.logger.info(`${loaded} / ${this.count}`)
        }
      },
    })
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    this.logger.success(`Loaded ${this.count} published articles in ${seconds} s`)
  }
}
