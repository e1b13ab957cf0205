import { BaseTransformer } from '@adonisjs/core/transformers'
import type { PublicArticle, PublicArticleDetail } from '#services/public/article_query_service'
import { named, s } from '#openapi/schema'
import { ARTICLE_CATEGORIES } from '#models/article'

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

const publicFields = {
  slug: s.string(),
  title: s.string(),
  summary: s.string(),
  category: s.enum(ARTICLE_CATEGORIES),
  coverUrl: s.nullable(s.string()),
  authorName: s.nullable(s.string()),
  publishedAt: s.dateTime(),
  updatedAt: s.dateTime(),
}
/** Response contract (OpenAPI): list items carry no content; the detail does. */
export const publicArticleSchema = named('PublicArticle', s.object(publicFields))
export const publicArticleDetailSchema = named(
  'PublicArticleDetail',
  s.object({ ...publicFields, content: s.string() })
)

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
