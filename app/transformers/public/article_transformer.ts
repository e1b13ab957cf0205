import { BaseTransformer } from '@adonisjs/core/transformers'
import type { PublicArticle, PublicArticleDetail } from '#services/public/article_query_service'

/** The public list fields: the whole response contract of a list item, nothing else. */
const LIST_FIELDS = [
  'slug',
  'title',
  'summary',
  'category',
  'coverUrl',
  'authorName',
  'publishedAt',
  'updatedAt',
] as const

/**
 * Public article contract. pick() is the last fence: even if a query selected more, only these
 * keys leave the server. The list variant carries no content.
 */
export default class ArticleTransformer extends BaseTransformer<
  PublicArticle | PublicArticleDetail
> {
  toObject() {
    return this.pick(this.resource, LIST_FIELDS)
  }

  forDetail() {
    const article = this.resource as PublicArticleDetail
    return this.pick(article, [...LIST_FIELDS, 'content'])
  }
}
