import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Article from '#models/article'
import { CrudController, crudContract } from '#controllers/admin/crud'
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
export default class ArticlesController extends CrudController<Article> {
  static contract = contract({
    ...crudContract({
      schema: adminArticleSchema,
      detail: adminArticleDetailSchema,
      validators: {
        list: listArticlesValidator,
        create: createArticleValidator,
        update: updateArticleValidator,
      },
      summaries: {
        index: 'List articles (every status)',
        show: 'One article with content',
        store: 'Create an article',
        update: 'Update an article',
        destroy: 'Delete an article',
      },
      conflicts: ['store', 'update'],
    }),
    publish: {
      summary: 'Publish now, or schedule with a future publishedAt',
      body: publishArticleValidator,
      data: adminArticleDetailSchema,
    },
    unpublish: { summary: 'Back to draft', data: adminArticleDetailSchema },
  })

  protected transformer = ArticleTransformer

  /** Every answer about one article carries its content. */
  protected variant = 'toDetail'

  constructor(protected service: ArticleService) {
    super()
  }

  async publish(ctx: HttpContext) {
    const { publishedAt } = await ctx.request.validateUsing(publishArticleValidator)
    const article = await this.service.publish(actorOf(ctx), ctx.params.id, publishedAt)
    return ctx.serialize(this.present(article))
  }

  async unpublish(ctx: HttpContext) {
    return ctx.serialize(this.present(await this.service.unpublish(actorOf(ctx), ctx.params.id)))
  }
}
