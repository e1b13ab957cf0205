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

const articles = new ArticleService()

/**
 * /api/admin/articles: the back-office side of articles (all statuses, internal fields). The
 * public module has its own controller, service and transformer.
 */
export default class ArticlesController {
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
