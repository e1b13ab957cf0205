import { DateTime } from 'luxon'
import { BaseTransformer } from '@adonisjs/core/transformers'
import type Article from '#models/article'
import { named, s } from '#openapi/schema'
import { ARTICLE_CATEGORIES, ARTICLE_STATUSES } from '#models/article'

const SUMMARY_FIELDS = [
  'id',
  'slug',
  'title',
  'summary',
  'category',
  'coverUrl',
  'status',
  'publishedAt',
  'authorId',
  'createdAt',
  'updatedAt',
] as const

const articleFields = {
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
  scheduled: s.boolean(),
  author: s.nullable(s.object({ id: s.integer(), account: s.string(), nickname: s.string() })),
}
/** Response contract (OpenAPI): list items, and the detail with content and internal note. */
export const adminArticleSchema = named('AdminArticle', s.object(articleFields))
export const adminArticleDetailSchema = named(
  'AdminArticleDetail',
  s.object({ ...articleFields, content: s.string(), internalNote: s.nullable(s.string()) })
)

/**
 * Articles on the admin side: every status and the internal fields (internal note, author),
 * unlike the public transformer. Lists leave the content out (`toObject`); the detail has it.
 */
export default class ArticleTransformer extends BaseTransformer<Article> {
  toObject() {
    return {
      ...this.pick(this.resource, SUMMARY_FIELDS),
      scheduled: this.isScheduled(),
      author: this.author(),
    }
  }

  toDetail() {
    return {
      ...this.pick(this.resource, [...SUMMARY_FIELDS, 'content', 'internalNote']),
      scheduled: this.isScheduled(),
      author: this.author(),
    }
  }

  /** Published with a future date: hidden from the public site until then. */
  private isScheduled() {
    const { status, publishedAt } = this.resource
    return status === 'published' && publishedAt !== null && publishedAt > DateTime.utc()
  }

  /** The author account (preloaded by the service), null once the author was deleted. */
  private author() {
    const author = this.resource.author
    return author ? { id: author.id, account: author.account, nickname: author.nickname } : null
  }
}
