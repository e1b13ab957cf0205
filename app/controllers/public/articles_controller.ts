import { digest } from '#core/secrets'
import type { HttpContext } from '@adonisjs/core/http'
import { pageMeta } from '#providers/api_provider'
import { notFound } from '#exceptions/api_exception'
import { type ArticlePage, ArticleQueryService } from '#services/public/article_query_service'
import ArticleTransformer, {
  publicArticleDetailSchema,
  publicArticleSchema,
} from '#transformers/public/article_transformer'
import {
  MAX_PAGE_WINDOW,
  listArticlesValidator,
  showArticleValidator,
} from '#validators/public/article'
import { contract } from '#openapi/contract'

/** Public content may sit in shared caches briefly; an unpublish shows within this many seconds. */
const CACHE_CONTROL = 'public, max-age=30'

/**
 * Public article endpoints: no auth middleware, no admin code. Validate the query string, ask the
 * public service (which owns the "published and due" rule), pick the public fields through the
 * transformer, and send the JSON text with a strong ETag over exactly that text.
 */
export default class ArticlesController {
  static contract = contract({
    index: {
      summary: 'Published articles, newest first (keyword, category, sort)',
      description: 'ETag and Last-Modified; keyword searches are rate limited per address.',
      query: listArticlesValidator,
      page: publicArticleSchema,
      conditional: true,
      errors: [429, 503],
    },
    show: {
      summary: 'One published article by slug',
      params: showArticleValidator,
      data: publicArticleDetailSchema,
      conditional: true,
    },
  })

  /** One service for every request: it keeps what it derives per filters (its cache keys). */
  protected articles = articleQueries

  async index({ request, response }: HttpContext) {
    // validateUsing: its messages come in the caller's language (start/kernel.ts).
    const filters = await request.validateUsing(listArticlesValidator, { data: request.qs() })
    // The client: a keyword search holds at most its address's share of the search gate.
    const page = await this.articles.list(filters, request)
    const answer = answerOf(page, () => this.encode(page), page.lastModified)
    response.header('Last-Modified', answer.lastModified!)
    return this.send(response, answer)
  }

  protected encode(page: ArticlePage) {
    const meta = pageMeta(page.total, page.pageNum, page.pageSize)
    // No page past pageNum * pageSize <= MAX_PAGE_WINDOW can be requested: lastPage never points there.
    meta.lastPage = Math.max(
      1,
      Math.min(meta.lastPage, Math.floor(MAX_PAGE_WINDOW / page.pageSize))
    )
    const data = page.rows.map((row) => new ArticleTransformer(row).toObject())
    return JSON.stringify({ data, meta })
  }

  async show({ params, request, response }: HttpContext) {
    const { slug } = await request.validateUsing(showArticleValidator, {
      data: { slug: params.slug },
    })
    const article = await this.articles.findBySlug(slug)
    // Unknown, draft, archived and scheduled all answer the same: nothing tells them apart.
    if (!article) throw notFound('articleNotFound')
    return this.send(
      response,
      answerOf(article, () => JSON.stringify({ data: new ArticleTransformer(article).forDetail() }))
    )
  }

  /** Cache headers, and 304 when the client's validators still match the body it would get. */
  protected send(response: HttpContext['response'], { body, etag }: JsonAnswer) {
    response.header('Cache-Control', CACHE_CONTROL)
    response.header('ETag', etag)
    if (response.fresh()) return response.notModified()
    response.header('Content-Type', 'application/json; charset=utf-8')
    return response.send(body)
  }
}

const articleQueries = new ArticleQueryService()

type JsonAnswer = { body: string; etag: string; lastModified?: string }
/**
 * A page or an article served from memory is the same object while its version holds: its body,
 * ETag (over exactly that text) and Last-Modified text are computed once.
 */
const answers = new WeakMap<object, JsonAnswer>()
function answerOf(value: object, encode: () => string, lastModified?: Date) {
  let answer = answers.get(value)
  if (!answer) {
    const body = encode()
    answer = {
      body,
      etag: `"${digest(body, 'base64url')}"`,
      lastModified: lastModified?.toUTCString(),
    }
    answers.set(value, answer)
  }
  return answer
}
