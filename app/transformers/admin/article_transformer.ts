import { DateTime } from 'luxon'
import { BaseTransformer } from '@adonisjs/core/transformers'
import type Article from '#models/article'
import { computed, named, s, shape, sortable } from '#openapi/schema'
import { ARTICLE_CATEGORIES, ARTICLE_STATUSES } from '#models/article'

const author = shape({ id: s.integer(), account: s.string(), nickname: s.string() })
const article = shape({
  id: s.integer(),
  slug: s.string(),
  title: s.string(),
  summary: s.string(),
  category: s.enum(ARTICLE_CATEGORIES),
  coverUrl: s.nullable(s.string()),
  status: s.enum(ARTICLE_STATUSES),
  publishedAt: s.nullable(s.dateTime()),
  authorId: s.nullable(s.integer()),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
  scheduled: computed(s.boolean()),
  author: computed(s.nullable(author.schema)),
})
const detail = shape({
  ...article.properties,
  content: s.string(),
  internalNote: s.nullable(s.string()),
})
/** Response contract (OpenAPI): list items, and the detail with content and internal note. */
export const adminArticleSchema = named('AdminArticle', article.schema)
export const adminArticleDetailSchema = named('AdminArticleDetail', detail.schema)
/** What `sort` accepts on the admin article list. */
export const articleSort = sortable(article, [
  'id',
  'title',
  'slug',
  'category',
  'status',
  'publishedAt',
  'createdAt',
  'updatedAt',
])

/**
 * Articles on the admin side: every status and the internal fields (internal note, author),
 * unlike the public transformer. Lists leave the content out (`toObject`); the detail has it.
 */
export default class ArticleTransformer extends BaseTransformer<Article> {
  toObject() {
    return { ...this.pick(this.resource, article.keys), ...this.computed() }
  }

  toDetail() {
    return { ...this.pick(this.resource, detail.keys), ...this.computed() }
  }

  private computed() {
    const { status, publishedAt, author: writer } = this.resource
    return {
      // Published with a future date: hidden from the public site until then.
      scheduled: status === 'published' && publishedAt !== null && publishedAt > DateTime.utc(),
      // Preloaded by the service; null once the author was deleted.
      author: writer ? this.pick(writer, author.keys) : null,
    }
  }
}
