import { ARTICLE_CATEGORIES, ARTICLE_STATUSES } from '#models/article'
import { computed, s, shape, sortable, type Infer } from '#openapi/schema'

export const author = shape({ id: s.integer(), account: s.string(), nickname: s.string() })

/** An article on the admin side: every status and the internal fields; no content in lists. */
export const article = shape({
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
/** The admin detail: with content and internal note. */
export const articleDetail = shape({
  ...article.properties,
  content: s.string(),
  internalNote: s.nullable(s.string()),
})
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
