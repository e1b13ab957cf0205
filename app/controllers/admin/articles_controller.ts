import type { HttpContext } from '@adonisjs/core/http'
import { pageMeta } from '#providers/api_provider'
import ArticleService from '#services/admin/article_service'
import { actorOf } from '#services/admin/common'
import ArticleTransformer from '#transformers/admin/article_transformer'
import {
  createArticleValidator,
  listArticlesValidator,
  publishArticleValidator,
  updateArticleValidator,
} from '#validators/admin/article'
import { contract } from '#openapi/contract'
import {
  adminArticleDetailSchema,
  adminArticleSchema,
} from '#transformers/admin/article_transformer'

const articles = new ArticleService()

/**
 * /api/admin/articles: the back-office side of articles (all statuses, internal fields). The
 * public module has its own controller, service and transformer.
 */
export default class ArticlesController {
  static contract = contract({
    index: {
      summary: 'List articles (every status)',
      query: listArticlesValidator,
      page: adminArticleSchema,
    },
    show: { summary: 'One article with content', data: adminArticleDetailSchema },
    store: {
      summary: 'Create an article',
      body: createArticleValidator,
      status: 201,
      data: adminArticleDetailSchema,
      errors: [409],
    },
    update: {
      summary: 'Update an article',
      body: updateArticleValidator,
      data: adminArticleDetailSchema,
      errors: [409],
    },
    destroy: { summary: 'Delete an article', status: 204 },
    publish: {
      summary: 'Publish now, or schedule with a future publishedAt',
      body: publishArticleValidator,
      data: adminArticleDetailSchema,
    },
    unpublish: { summary: 'Back to draft', data: adminArticleDetailSchema },
  })

  async index(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(listArticlesValidator)
    const page = await articles.list(filters)
    return ctx.serialize(
      ArticleTransformer.paginate(page.rows, pageMeta(page.total, page.pageNum, page.pageSize))
    )
  }

  async show(ctx: HttpContext) {
    const article = await articles.show(ctx.params.id)
    return ctx.serialize(ArticleTransformer.transform(article).useVariant('toDetail'))
  }

  async store(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(createArticleValidator)
    const article = await articles.create(actorOf(ctx), data)
    ctx.response.status(201)
    return ctx.serialize(ArticleTransformer.transform(article).useVariant('toDetail'))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateArticleValidator)
    const article = await articles.update(actorOf(ctx), ctx.params.id, data)
    return ctx.serialize(ArticleTransformer.transform(article).useVariant('toDetail'))
  }

  async destroy(ctx: HttpContext) {
    await articles.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }

  async publish(ctx: HttpContext) {
    const { publishedAt } = await ctx.request.validateUsing(publishArticleValidator)
    const article = await articles.publish(actorOf(ctx), ctx.params.id, publishedAt)
    return ctx.serialize(ArticleTransformer.transform(article).useVariant('toDetail'))
  }

  async unpublish(ctx: HttpContext) {
    const article = await articles.unpublish(actorOf(ctx), ctx.params.id)
    return ctx.serialize(ArticleTransformer.transform(article).useVariant('toDetail'))
  }
}
