import { DateTime } from 'luxon'
import { BaseTransformer } from '@adonisjs/core/transformers'
import type Article from '#models/article'
import { named } from '#openapi/schema'
import { article, articleDetail, author } from '#resources/articles'

/** Response contract (OpenAPI): list items, and the detail with content and internal note. */
export const adminArticleSchema = named('AdminArticle', article.schema)
export const adminArticleDetailSchema = named('AdminArticleDetail', articleDetail.schema)

/**
 * Articles on the admin side: every status and the internal fields (internal note, author),
 * unlike the public transformer. Lists leave the content out (`toObject`); the detail has it.
 */
export default class ArticleTransformer extends BaseTransformer<Article> {
  toObject() {
    return { ...this.pick(this.resource, article.keys), ...this.computed() }
  }

  toDetail() {
    return { ...this.pick(this.resource, articleDetail.keys), ...this.computed() }
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
