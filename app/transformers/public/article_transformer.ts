import { BaseTransformer } from '@adonisjs/core/transformers'
import { named, s, shape, type Infer } from '#openapi/schema'
import { ARTICLE_CATEGORIES } from '#models/article'

/**
 * What the public may see of an article (no id, status, internal note or author account): the
 * response contract, and the only columns the public query reads (article_query_service).
 * List items carry no content; the detail does.
 */
export const publicArticle = shape({
  slug: s.string(),
  title: s.string(),
  summary: s.string(),
  category: s.enum(ARTICLE_CATEGORIES),
  coverUrl: s.nullable(s.string()),
  authorName: s.nullable(s.string()),
  publishedAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
export const publicArticleDetail = shape({ ...publicArticle.properties, content: s.string() })
export type PublicArticle = Infer<typeof publicArticle.schema>
export type PublicArticleDetail = Infer<typeof publicArticleDetail.schema>

/** Response contract (OpenAPI). */
export const publicArticleSchema = named('PublicArticle', publicArticle.schema)
export const publicArticleDetailSchema = named('PublicArticleDetail', publicArticleDetail.schema)

/** pick() is the last fence: even if a query selected more, only these keys leave the server. */
export default class ArticleTransformer extends BaseTransformer<
  PublicArticle | PublicArticleDetail
> {
  toObject() {
    return this.pick(this.resource, publicArticle.keys)
  }

  forDetail() {
    return this.pick(this.resource as PublicArticleDetail, publicArticleDetail.keys)
  }
}
