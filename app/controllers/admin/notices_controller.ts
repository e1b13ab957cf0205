import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import NoticeService from '#services/admin/notice_service'
import { actorOf } from '#services/admin/common'
import NoticeTransformer, { noticeSchema } from '#transformers/admin/notice_transformer'
import {
  createNoticeValidator,
  listNoticesValidator,
  updateNoticeValidator,
} from '#validators/admin/notice'
import { contract } from '#openapi/contract'

/** /api/admin/notices (start/routes/admin.ts declares the codes). */
@inject()
export default class NoticesController {
  static contract = contract({
    index: { summary: 'List notices', query: listNoticesValidator, page: noticeSchema },
    show: { summary: 'One notice', data: noticeSchema },
    store: {
      summary: 'Create a notice (Markdown body; published without a time: now)',
      body: createNoticeValidator,
      status: 201,
      data: noticeSchema,
    },
    update: {
      summary: 'Update, publish or withdraw a notice',
      body: updateNoticeValidator,
      data: noticeSchema,
    },
    destroy: { summary: 'Delete a notice and its read state', status: 204 },
  })

  constructor(protected notices: NoticeService) {}

  async index(ctx: HttpContext) {
    const page = await this.notices.list(await ctx.request.validateUsing(listNoticesValidator))
    return ctx.serialize(NoticeTransformer.paginate(page.rows, page.meta))
  }

  async show(ctx: HttpContext) {
    return ctx.serialize(NoticeTransformer.transform(await this.notices.show(ctx.params.id)))
  }

  async store(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(createNoticeValidator)
    const notice = await this.notices.create(actorOf(ctx), data)
    ctx.response.status(201)
    return ctx.serialize(NoticeTransformer.transform(notice))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateNoticeValidator)
    return ctx.serialize(
      NoticeTransformer.transform(await this.notices.update(actorOf(ctx), ctx.params.id, data))
    )
  }

  async destroy(ctx: HttpContext) {
    await this.notices.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }
}
