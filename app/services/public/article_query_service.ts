import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Article, { type ArticleCategory } from '#models/article'
import type { ChainableContract } from '@adonisjs/lucid/types/querybuilder'
import { MAX_PAGE_WINDOW, PAGE_SIZE_DEFAULT, type ArticleSort } from '#validators/public/article'

/** What the public may see of an article: no id, status, internal note or author account. */
export type PublicArticle = {
  slug: string
  title: string
  summary: string
  category: ArticleCategory
  coverUrl: string | null
  authorName: string | null
  publishedAt: DateTime
  updatedAt: DateTime
}
export type PublicArticleDetail = PublicArticle & { content: string }

export type ArticleListFilters = {
  pageNum?: number
  pageSize?: number
  keyword?: string
  category?: ArticleCategory
  sort?: ArticleSort
}

export type ArticlePage = {
  rows: PublicArticle[]
  /** Matching articles, exact up to MAX_PAGE_WINDOW and capped at it beyond (see cappedCount()). */
  total: number
  pageNum: number
  pageSize: number
}

/** The only columns ever read; `content` is added for the detail. */
const LIST_COLUMNS = [
  'articles.slug',
  'articles.title',
  'articles.summary',
  'articles.category',
  'articles.cover_url',
  'articles.published_at',
  'articles.updated_at',
]

/** LIKE pattern for a user's keyword: %, _ and the escape character itself match literally. */
function containsPattern(keyword: string) {
  return `%${keyword.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}

/**
 * Read side of the public article module. The domain rule "shown = published and already due" lives
 * in visible(), which every query starts from, so no caller input can widen it. Database errors are
 * not caught: they reach the exception handler (5xx), never an empty page.
 */
export class ArticleQueryService {
  async list(filters: ArticleListFilters): Promise<ArticlePage> {
    const pageNum = filters.pageNum ?? 1
    const pageSize = filters.pageSize ?? PAGE_SIZE_DEFAULT
    const direction = filters.sort === 'oldest' ? 'asc' : 'desc'
    const now = this.now()

    // The tie-breaker on id keeps the order total, so pages never overlap or skip rows that share
    // a published_at. Both keys follow articles_public_list_index (status, published_at, id).
    const pageQuery = this.filtered(this.visible(Article.query(), now), filters)
      .select(LIST_COLUMNS)
      .select('users.nickname as author_name')
      .leftJoin('users', 'users.id', 'articles.author_id')
      .orderBy('articles.published_at', direction)
      .orderBy('articles.id', direction)
      .offset((pageNum - 1) * pageSize)
      .limit(pageSize)

    const [rows, total] = await Promise.all([pageQuery, this.cappedCount(now, filters)])
    return { rows: rows.map((row) => this.toPublic(row)), total, pageNum, pageSize }
  }

  async findBySlug(slug: string): Promise<PublicArticleDetail | null> {
    const row = await this.visible(Article.query(), this.now())
      .select([...LIST_COLUMNS, 'articles.content'])
      .select('users.nickname as author_name')
      .leftJoin('users', 'users.id', 'articles.author_id')
      .where('articles.slug', slug)
      .first()
    return row ? { ...this.toPublic(row), content: row.content } : null
  }

  /**
   * Counts at most MAX_PAGE_WINDOW matches. No page beyond that window can be requested, so an
   * exact count of a million rows would buy the client nothing and cost a scan per request; the
   * inner LIMIT lets the database stop at the cap.
   */
  protected async cappedCount(now: string, filters: ArticleListFilters) {
    const matches = this.filtered(this.visible(db.from('articles'), now), filters)
      .select(db.raw('1'))
      .limit(MAX_PAGE_WINDOW)
      .as('capped')
    // Unfiltered, walking the list index in its own order makes this an index-only scan of its
    // first entries (measured on PostgreSQL: 64 index pages for 10,000 rows, whatever the table
    // size or how drafts are spread in the heap). With filters, the planner's own choice (often a
    // scan that stops at the limit) was faster than a forced ordered walk, so it is left free.
    if (!filters.category && !filters.keyword) {
      matches.orderBy('articles.published_at', 'desc').orderBy('articles.id', 'desc')
    }
    const [row] = await db.from(matches).count('* as total')
    return Number(row.total)
  }

  /** The domain rule: published, and the publication time has come (scheduled ones stay hidden). */
  protected visible<Query extends ChainableContract>(query: Query, now: string): Query {
    return query.where('articles.status', 'published').where('articles.published_at', '<=', now)
  }

  protected filtered<Query extends ChainableContract>(query: Query, filters: ArticleListFilters) {
    if (filters.category) query.where('articles.category', filters.category)
    if (filters.keyword) {
      const pattern = containsPattern(filters.keyword)
      // PostgreSQL: ILIKE (case-insensitive, Unicode aware). SQLite: LIKE is case-insensitive
      // for ASCII. ESCAPE is explicit so the escaping above means the same on both.
      const operator = this.isPostgres() ? 'ILIKE' : 'LIKE'
      query.where((match) =>
        match
          .whereRaw(`articles.title ${operator} ? ESCAPE '\\'`, [pattern])
          .orWhereRaw(`articles.summary ${operator} ? ESCAPE '\\'`, [pattern])
      )
    }
    return query
  }

  /**
   * "Now" as the connection stores dates: SQLite keeps 'yyyy-MM-dd HH:mm:ss' text (compared as
   * text), PostgreSQL a timestamptz. Binding a JS Date would compare wrongly on SQLite.
   */
  protected now() {
    return DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat)
  }

  protected isPostgres() {
    return db.connection().dialect.name === 'postgres'
  }

  protected toPublic(row: Article): PublicArticle {
    return {
      slug: row.slug,
      title: row.title,
      summary: row.summary,
      category: row.category,
      coverUrl: row.coverUrl,
      authorName: row.$extras.author_name ?? null,
      publishedAt: row.publishedAt!,
      updatedAt: row.updatedAt,
    }
  }
}

export default new ArticleQueryService()
