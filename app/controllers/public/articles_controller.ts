import { createHash } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import { pageMeta } from '#providers/api_provider'
import { notFound } from '#exceptions/api_exception'
import articles from '#services/public/article_query_service'
import ArticleTransformer from '#transformers/public/article_transformer'
import {
  MAX_PAGE_WINDOW,
  listArticlesValidator,
  showArticleValidator,
} from '#validators/public/article'

/** Public content may sit in shared caches briefly; an unpublish shows within this many seconds. */
const CACHE_CONTROL = 'public, max-age=30'

/**
 * Public article endpoints: no auth middleware, no admin code. Validate the query string, ask the
 * public service (which owns the "published and due" rule), map through the public transformer.
 */
export default class ArticlesController {
  async index({ request, response, serialize }: HttpContext) {
    const filters = await listArticlesValidator.validate(request.qs())
    const page = await articles.list(filters)

    const meta = pageMeta(page.total, page.pageNum, page.pageSize)
    // No page past pageNum * pageSize <= MAX_PAGE_WINDOW can be requested: lastPage never points there.
    meta.lastPage = Math.max(
      1,
      Math.min(meta.lastPage, Math.floor(MAX_PAGE_WINDOW / page.pageSize))
    )

    response.header('Cache-Control', CACHE_CONTROL)
    return serialize(ArticleTransformer.paginate(page.rows, meta))
  }

  async show({ request, response, serialize }: HttpContext) {
    const { slug } = await showArticleValidator.validate({ slug: request.param('slug') })
    const article = await articles.findBySlug(slug)
    // Unknown, draft, archived and scheduled all answer the same: nothing tells them apart.
    if (!article) throw notFound('Article not found')

    const body = await serialize(ArticleTransformer.transform(article).useVariant('forDetail'))
    // A strong validator over the exact JSON sent: any visible change yields a new ETag.
    const digest = createHash('sha256').update(JSON.stringify(body)).digest('base64url')
    response.header('Cache-Control', CACHE_CONTROL)
    response.header('ETag', `"${digest}"`)
    if (response.fresh()) return response.notModified()
    return body
  }
}
