import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Article from '#models/article'
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

/**
 * /api/admin/articles: the back-office side of articles (all statuses, internal fields). The
 * public module has its own controller, service and transformer.
 */
@inject()
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

  constructor(protected articles: ArticleService) {}

  async index(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(listArticlesValidator)
    const page = await this.articles.list(actorOf(ctx), filters)
    return ctx.serialize(ArticleTransformer.paginate(page.rows, page.meta))
  }

  async show(ctx: HttpContext) {
    return ctx.serialize(detail(await this.articles.show(actorOf(ctx), ctx.params.id)))
  }

  async store(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(createArticleValidator)
    const article = await this.articles.create(actorOf(ctx), data)
    ctx.response.status(201)
    return ctx.serialize(detail(article))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateArticleValidator)
    return ctx.serialize(detail(await this.articles.update(actorOf(ctx), ctx.params.id, data)))
  }

  async destroy(ctx: HttpContext) {
    await this.articles.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }

  async publish(ctx: HttpContext) {
    const { publishedAt } = await ctx.request.validateUsing(publishArticleValidator)
    const article = await this.articles.publish(actorOf(ctx), ctx.params.id, publishedAt)
    return ctx.serialize(detail(article))
  }

  async unpublish(ctx: HttpContext) {
    return ctx.serialize(detail(await this.articles.unpublish(actorOf(ctx), ctx.params.id)))
  }
}

/** Every answer about one article carries its content (the detail variant). */
const detail = (article: Article) => ArticleTransformer.transform(article).useVariant('toDetail')
