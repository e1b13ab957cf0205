import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { Infer } from '@vinejs/vine/types'
import Article from '#models/article'
import { conflict } from '#exceptions/api_exception'
import { type Actor, listPage } from '#services/admin/common'
import { articleSort } from '#resources/articles'
import { SCOPED, type Viewer, findInScope, scoped } from '#services/admin/data_scope'
import { createAudited, deleteAudited, saveAudited } from '#services/admin/writes'
import { definedOnly } from '#core/defined_only'
import ArticlePolicy from '#policies/article_policy'
import type {
  createArticleValidator,
  listArticlesValidator,
  updateArticleValidator,
} from '#validators/admin/article'

/** Room left for a "-N" suffix within the 160 characters of the column. */
const SLUG_BASE_MAX = 150

/** A URL slug from a title: ASCII letters and digits joined by dashes ("article" when none). */
export function slugify(title: string) {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_BASE_MAX)
    .replace(/^-+|-+$/g, '')
  return slug || 'article'
}

/** `base`, or `base-2`, `base-3`, ... whichever is not in `taken` first. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>) {
  if (!taken.has(base)) return base
  let suffix = 2
  while (taken.has(`${base}-${suffix}`)) suffix++
  return `${base}-${suffix}`
}

/**
 * Articles on the admin side: every status, internal fields included. Separate from the public
 * article service on purpose (different fields, permissions and error semantics).
 * Status changes go through publish/unpublish only, which need their own permission.
 */
export default class ArticleService {
  list(filters: Infer<typeof listArticlesValidator>, viewer: Viewer) {
    return listPage(scoped(Article.query(), SCOPED.articles, viewer).preload('author'), filters, {
      keyword: ['title', 'slug'],
      exact: ['status', 'category'],
      sortable: articleSort,
      order: [{ column: 'id', order: 'desc' }],
    })
  }

  async show(id: number, viewer: Viewer) {
    return this.withAuthor(await this.find(viewer, id))
  }

  /** The article `id` if the viewer's data scope shows it (its author's), else 404. */
  private find(viewer: Viewer, id: number) {
    return findInScope(Article, SCOPED.articles, viewer, id)
  }

  private async withAuthor(article: Article) {
    await article.load('author')
    return article
  }

  /** After a write (found in scope before it, or just created by the actor). */
  private async reload(id: number) {
    return this.withAuthor(await Article.findOrFail(id))
  }

  async create(actor: Actor, data: Infer<typeof createArticleValidator>) {
    const slug = data.slug ?? (await this.freeSlug(slugify(data.title)))
    if (data.slug) await this.assertSlugFree(data.slug, null)
    // A slug taken concurrently still fails on the unique index, answered 409 by the handler.
    const article = await createAudited(actor, 'article', Article, {
      title: data.title,
      slug,
      summary: data.summary ?? '',
      content: data.content,
      category: data.category,
      coverUrl: data.coverUrl ?? null,
      internalNote: data.internalNote ?? null,
      status: 'draft',
      publishedAt: null,
      authorId: actor.id,
    })
    return this.reload(article.id)
  }

  async update(actor: Actor, id: number, data: Infer<typeof updateArticleValidator>) {
    const article = await this.find(actor, id)
    await actor.bouncer.with(ArticlePolicy).authorize('update', article)
    if (data.slug !== undefined && data.slug !== article.slug) {
      await this.assertSlugFree(data.slug, article.id)
    }
    await this.write(actor, article, () => article.merge(definedOnly(data)))
    return this.reload(id)
  }

  async destroy(actor: Actor, id: number) {
    const article = await this.find(actor, id)
    await actor.bouncer.with(ArticlePolicy).authorize('delete', article)
    await db.transaction((trx) => deleteAudited(trx, actor, 'article', article))
  }

  /**
   * Publishes now, or at `publishedAt` (a future date keeps it hidden from the public list until
   * then: scheduled). Publishing an already published article without a date keeps its date.
   */
  async publish(actor: Actor, id: number, publishedAt?: DateTime) {
    const article = await this.find(actor, id)
    const keep = article.status === 'published' ? article.publishedAt : null
    await this.write(actor, article, () => {
      article.status = 'published'
      article.publishedAt = publishedAt ?? keep ?? DateTime.utc()
    })
    return this.reload(id)
  }

  /** Back to draft: hidden from the public site at once. */
  async unpublish(actor: Actor, id: number) {
    const article = await this.find(actor, id)
    await this.write(actor, article, () => {
      article.status = 'draft'
      article.publishedAt = null
    })
    return this.reload(id)
  }

  /** Applies `change` and saves, with the audit row, in one transaction. */
  private write(actor: Actor, article: Article, change: () => void) {
    return db.transaction((trx) => saveAudited(trx, actor, 'article', article, change))
  }

  private async assertSlugFree(slug: string, exceptId: number | null) {
    const query = Article.query().where('slug', slug).select('id')
    if (exceptId !== null) query.whereNot('id', exceptId)
    if (await query.first()) throw conflict('slugAlreadyTaken')
  }

  /** `base`, or `base-2`, `base-3`, ... whichever is free first. */
  private async freeSlug(base: string) {
    const rows = await Article.query()
      .select('slug')
      .where('slug', base)
      .orWhere('slug', 'like', `${base}-%`)
    return firstFreeSlug(base, new Set(rows.map((row) => row.slug)))
  }
}
