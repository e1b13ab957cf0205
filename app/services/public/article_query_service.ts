import db from '@adonisjs/lucid/services/db'
import string from '@adonisjs/core/helpers/string'
import type { Infer } from '@vinejs/vine/types'
import { PUBLIC_CONNECTION } from '#config/database'
import { preparedQuery } from '#core/prepared_query'
import { versionRead } from '#core/fresh_read'
import searchGate from '#services/public/search_gate'
import { CLOCK, statementKey, type Statement } from '#services/public/answer_cache'
import { BoundedCache, versionedCache } from '#core/cache'
import {
  MAX_PAGE_WINDOW,
  PAGE_SIZE_DEFAULT,
  type listArticlesValidator,
} from '#validators/public/article'
import {
  publicArticle,
  publicArticleDetail,
  type PublicArticle,
  type PublicArticleDetail,
} from '#resources/articles'
import type { Schema } from '#openapi/schema'

export type ArticleListFilters = Infer<typeof listArticlesValidator>

/** The cache keys of a list request (ArticleQueryService.cacheKeys). */
type CacheKeys = { page: string; count: string }

export type ArticlePage = {
  rows: PublicArticle[]
  /** Matching articles, exact up to MAX_PAGE_WINDOW and capped at it beyond (see count()). */
  total: number
  pageNum: number
  pageSize: number
  /** When the list last changed: an article write, a nickname, or a scheduled one falling due. */
  lastModified: Date
}

/** A row of the public statements: the shape's columns by their snake_case names. */
type ArticleRow = Record<string, unknown>

/** The last row of the list statement: when the list changed, and when it will next. */
type MetaRow = {
  is_meta: number
  version: string | number | null
  changed_at: Date | string | null
  last_due: Date | string | null
  next_due: Date | string | null
}

/** Where a public field is read from when it is not the article's own column of its name. */
const SOURCES: Record<string, string> = { authorName: 'u.nickname' }
/** The fields of a shape as the statements read them: the only columns ever read. */
function fieldsOf(shape: { keys: string[]; properties: Record<string, Schema> }) {
  const fields = shape.keys.map((key) => ({
    key,
    column: string.snakeCase(key),
    time: shape.properties[key].format === 'date-time',
  }))
  const columns = fields.map(({ key, column }) =>
    key in SOURCES ? `${SOURCES[key]} AS ${column}` : `a.${column}`
  )
  return { fields, columns: columns.join(', '), nulls: columns.map(() => 'NULL').join(', ') }
}
const LIST = fieldsOf(publicArticle)
const DETAIL = fieldsOf(publicArticleDetail)
/** The domain rule: published, and the publication time has come (scheduled ones stay hidden). */
const VISIBLE = `a.status = 'published' AND a.published_at <= ?`

/**
 * Read side of the public article module, on the public module's own connection (config/database.ts).
 * Plain rows, no model hydration; the SQL texts are fixed per filter combination and sent as
 * prepared statements (#core/prepared_query). The domain rule lives in VISIBLE, which every
 * query starts from, so no caller input can widen it. Database errors are not caught: they reach
 * the exception handler (5xx), never an empty page.
 */
export class ArticleQueryService {
  /**
   * A page of the list, from memory when it was read at the articles version the database holds
   * now (one primary-key read instead of planning and running the page statement), else read.
   * A key never seen is read straight away, as one statement. Keyword searches have their own
   * cache and wait their turn at the search gate, where the client's address holds at most its
   * share of places (`client.ip()`, read for a search only: it parses X-Forwarded-For).
   *
   * The version is bumped by triggers on every article write (raw SQL and other instances
   * included), so an answer is served only if it was read at the version the database holds now.
   */
  async list(filters: ArticleListFilters, client?: { ip(): string }): Promise<ArticlePage> {
    const keys = this.cacheKeys(filters)
    const cache = filters.keyword ? searches : pages
    const cached = await cache.getIfCurrent(keys.page, () => this.version())
    if (cached) return cached

    const answer = filters.keyword
      ? await searchGate.run(() => this.read(filters, keys), client?.ip())
      : await this.read(filters, keys)
    if (answer.cacheable) {
      const bytes = Buffer.byteLength(JSON.stringify(answer.page.rows)) + keys.page.length + 200
      cache.set(keys.page, answer.page, answer.version, { bytes, validUntil: answer.validUntil })
    }
    return answer.page
  }

  /**
   * The articles version now: bumped by triggers on every article write and nickname change.
   * Read once for the requests that arrived while no read was on its way (FreshRead): each still
   * sees every write committed before it arrived.
   */
  protected version(): Promise<number> {
    return articlesVersion.get()
  }

  /**
   * A page, with the articles version it was read at and when the next scheduled article falls
   * due (until then the page stays right at that version). `cacheable`: the total, when counted,
   * was counted at that same version.
   */
  protected async read(
    filters: ArticleListFilters,
    keys?: CacheKeys
  ): Promise<{
    page: ArticlePage
    version: number
    validUntil: number
    cacheable: boolean
  }> {
    const now = Date.now()
    const statements = this.statements(filters, this.timestamp(now))
    const { pageNum, pageSize, offset } = statements
    const result = await preparedQuery<ArticleRow & MetaRow>(
      statements.page.sql,
      statements.page.bindings,
      { client: this.client(), named: !filters.keyword }
    )
    const meta = result[result.length - 1]
    const rows = result.slice(0, -1)
    const version = Number(meta.version)
    const validUntil = meta.next_due === null ? Infinity : this.toDate(meta.next_due).getTime()
    const lastDue = meta.last_due === null ? 0 : this.toDate(meta.last_due).getTime()

    // A short page that is not past the end holds the last matches: the total is exact without
    // counting. Otherwise the cached count for this version, or a count.
    const counted =
      rows.length < pageSize && (rows.length > 0 || offset === 0)
        ? { total: offset + rows.length, version }
        : await this.count(
            filters,
            statements.count,
            // Derived once per request: the search already has them.
            (keys ?? this.cacheKeys(filters)).count,
            version,
            validUntil
          )
    const page = {
      rows: rows.map((row) => this.toPublic<PublicArticle>(LIST, row)),
      total: counted.total,
      pageNum,
      pageSize,
      lastModified: new Date(Math.max(this.toDate(meta.changed_at!).getTime(), lastDue)),
    }
    return { page, version, validUntil, cacheable: counted.version === version }
  }

  /**
   * The statements of a list request, as sent: the page and its count, with `clock` bound as the
   * visibility time (the moment the request is answered at).
   */
  statements(filters: ArticleListFilters, clock: unknown) {
    const pageNum = filters.pageNum ?? 1
    const pageSize = filters.pageSize ?? PAGE_SIZE_DEFAULT
    const direction = filters.sort === 'oldest' ? 'ASC' : 'DESC'
    const where = this.where(filters)
    const bindings = [clock, ...where.bindings]
    const offset = (pageNum - 1) * pageSize

    // One statement: the page, then one more row (is_meta = 1) with the articles version, when
    // the list last changed, and when the next scheduled article falls due. The tie-breaker on id
    // keeps the order total, so pages never overlap or skip rows sharing a published_at; both keys
    // follow articles_public_list_index (status, published_at, id).
    const page: Statement = {
      sql: `SELECT p.* FROM (
         SELECT ${LIST.columns}, a.id, 0 AS is_meta, CAST(NULL AS BIGINT) AS version,
                CAST(NULL AS ${this.timestampType()}) AS changed_at,
                CAST(NULL AS ${this.timestampType()}) AS last_due,
                CAST(NULL AS ${this.timestampType()}) AS next_due
           FROM articles a LEFT JOIN users u ON u.id = a.author_id
          WHERE ${VISIBLE}${where.sql}
          ORDER BY a.published_at ${direction}, a.id ${direction}
          LIMIT ? OFFSET ?) p
       UNION ALL
       SELECT ${LIST.nulls}, NULL, 1, v.version, v.changed_at,
              (SELECT MAX(a.published_at) FROM articles a WHERE ${VISIBLE}),
              (SELECT MIN(a.published_at) FROM articles a
                WHERE a.status = 'published' AND a.published_at > ?)
         FROM articles_version v WHERE v.id = 1
       ORDER BY is_meta, published_at ${direction}, id ${direction}`,
      bindings: [...bindings, pageSize, offset, clock, clock],
    }

    // Counts at most MAX_PAGE_WINDOW matches (see count()). Unfiltered, the inner query walks the
    // list index in its own order (an index-only scan of its first entries).
    const order = where.sql ? '' : 'ORDER BY a.published_at DESC, a.id DESC'
    const count: Statement = {
      sql: `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM articles a
                WHERE ${VISIBLE}${where.sql} ${order} LIMIT ${MAX_PAGE_WINDOW}) capped) AS total,
              v.version
         FROM articles_version v WHERE v.id = 1`,
      bindings,
    }
    return { page, count, pageNum, pageSize, offset }
  }

  /**
   * The cache keys of a list request: its page statement (the search cache) and its count
   * statement (the count cache), whatever filters they hold, the clock left out. A filter added
   * to the statements is in the keys without anyone remembering to add it.
   */
  cacheKeys(filters: ArticleListFilters): CacheKeys {
    // Derived once per filters (the same filters make the same statements on this instance):
    // the two statements and their hashes are a third of a cached page's node time otherwise.
    const id = JSON.stringify(filters)
    let keys = this.#keys.get(id)
    if (!keys) {
      const { page, count } = this.statements(filters, CLOCK)
      keys = { page: statementKey(page), count: statementKey(count) }
      this.#keys.set(id, keys, { bytes: id.length + 200 })
    }
    return keys
  }

  /** cacheKeys' answers by filters; bounded (keywords are caller-chosen). */
  #keys = new BoundedCache<string, CacheKeys>({ max: 1000, maxBytes: MB })

  /**
   * A published article, from memory when it was read at the articles version the database holds
   * now (as list pages are), else read with the version in the same statement. A visible article
   * stays visible until a write, which bumps the version; a slug not found is never cached.
   */
  async findBySlug(slug: string): Promise<PublicArticleDetail | null> {
    const cached = await details.getIfCurrent(slug, () => this.version())
    if (cached) return cached

    const [row] = await preparedQuery<ArticleRow & { articles_version: string | number }>(
      `SELECT ${DETAIL.columns},
              (SELECT version FROM articles_version WHERE id = 1) AS articles_version
         FROM articles a LEFT JOIN users u ON u.id = a.author_id
        WHERE ${VISIBLE} AND a.slug = ?`,
      [this.timestamp(Date.now()), slug],
      { client: this.client() }
    )
    if (!row) return null
    const article = this.toPublic<PublicArticleDetail>(DETAIL, row)
    const bytes = Buffer.byteLength(JSON.stringify(article)) + slug.length + 200
    details.set(slug, article, Number(row.articles_version), { bytes })
    return article
  }

  /**
   * Counts at most MAX_PAGE_WINDOW matches: no page beyond that window can be requested, so an
   * exact count of a million rows would buy the client nothing and cost a scan.
   *
   * The count is cached per count statement (cacheKeys) and articles version (bumped by triggers
   * on every article write, raw SQL included), and only until the next scheduled article falls
   * due: the visible set changes then without any write. The count statement returns the version it counted at, which
   * is the key it is cached under, so a count is never served for another state of the table.
   * Returns the total and the version it was counted at.
   */
  protected async count(
    filters: ArticleListFilters,
    statement: Statement,
    key: string,
    version: number,
    validUntil: number
  ) {
    const hit = counts.get(key, version)
    if (hit !== undefined) return { total: hit, version }

    const [row] = await preparedQuery<{ total: string | number; version: string | number }>(
      statement.sql,
      statement.bindings,
      { client: this.client(), named: !filters.keyword }
    )
    const total = Number(row.total)
    // Counted at another version than the page saw: correct for this request's purpose (a total),
    // but cached only if the version is the page's, whose next due time is known.
    if (Number(row.version) === version) counts.set(key, total, version, { validUntil })
    return { total, version: Number(row.version) }
  }

  protected where(filters: ArticleListFilters) {
    let sql = ''
    const bindings: unknown[] = []
    if (filters.category) {
      sql += ' AND a.category = ?'
      bindings.push(filters.category)
    }
    if (filters.keyword) {
      // PostgreSQL: ILIKE (case-insensitive, Unicode aware), served by the trigram indexes from
      // 3 characters (one trigram); a shorter keyword is one of the article's lower-cased
      // characters or pairs (search_grams, migration 17638000001500), found in their GIN index,
      // and the ILIKE rechecks it. SQLite: LIKE (a scan), case-insensitive for ASCII. ESCAPE is
      // explicit so the escaping means the same on both.
      const postgres = this.isPostgres()
      if (postgres && [...filters.keyword].length <= SHORT_KEYWORD_LENGTH) {
        sql += ' AND a.search_grams @> ARRAY[lower(?)]'
        bindings.push(filters.keyword)
      }
      const operator = postgres ? 'ILIKE' : 'LIKE'
      sql += ` AND (a.title ${operator} ? ESCAPE '\\' OR a.summary ${operator} ? ESCAPE '\\')`
      const pattern = containsPattern(filters.keyword)
      bindings.push(pattern, pattern)
    }
    return { sql, bindings }
  }

  protected client() {
    return db.connection(PUBLIC_CONNECTION)
  }

  protected timestampType() {
    return this.isPostgres() ? 'TIMESTAMPTZ' : 'TEXT'
  }

  protected isPostgres() {
    return this.client().dialect.name === 'postgres'
  }

  /**
   * A time as the connection stores dates: SQLite keeps 'yyyy-MM-dd HH:mm:ss' text in UTC
   * (compared as text), PostgreSQL a timestamptz.
   */
  protected timestamp(ms: number) {
    const iso = new Date(ms).toISOString()
    return this.isPostgres() ? iso : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
  }

  /** pg gives Date objects; SQLite the stored text, UTC without a zone. */
  protected toDate(value: Date | string): Date {
    if (value instanceof Date) return value
    return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`)
  }

  /** A row as the public sees it: the shape's fields, times in ISO 8601 UTC. */
  protected toPublic<T>(shape: typeof LIST, row: ArticleRow): T {
    const article: Record<string, unknown> = {}
    for (const { key, column, time } of shape.fields) {
      article[key] = time ? this.toDate(row[column] as Date | string).toISOString() : row[column]
    }
    return article as T
  }
}

const MB = 1024 * 1024

const articlesVersion = versionRead('articles_version', PUBLIC_CONNECTION)

/** Up to this many characters (code points), a keyword is looked up in articles.search_grams. */
const SHORT_KEYWORD_LENGTH = 2

/** LIKE pattern for a user's keyword: %, _ and the escape character itself match literally. */
function containsPattern(keyword: string) {
  return `%${keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}

/** Cached counts by count statement (keywords are caller-chosen: bounded). */
const counts = versionedCache<string, number>('article-counts', { max: 1000 })

/**
 * Pages by their page statement (cacheKeys), tagged with the articles version they were read at
 * (see ArticleQueryService.list). Bounded in entries and bytes, and short-lived: an entry lives
 * SEARCH_CACHE_TTL_MS at most, and never past the moment the next scheduled article falls due.
 * Searches apart, so a flood of caller-chosen keywords cannot evict the plain pages.
 */
export const SEARCH_CACHE_TTL_MS = 10_000
export const searches = versionedCache<string, ArticlePage>('article-searches', {
  max: 500,
  maxBytes: 4 * MB,
  ttlMs: SEARCH_CACHE_TTL_MS,
})
const pages = versionedCache<string, ArticlePage>('article-pages', {
  max: 500,
  maxBytes: 4 * MB,
  ttlMs: SEARCH_CACHE_TTL_MS,
})
/** Published articles by slug, tagged likewise (findBySlug). */
const details = versionedCache<string, PublicArticleDetail>('article-details', {
  max: 1000,
  maxBytes: 8 * MB,
  ttlMs: SEARCH_CACHE_TTL_MS,
})
