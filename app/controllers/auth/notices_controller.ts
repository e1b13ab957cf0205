import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { contract } from '#openapi/contract'
import OwnNoticeService from '#services/own_notice_service'
import { ownNoticesJson, ownNoticesSchema } from '#transformers/auth/own_notice_transformer'

/** /api/auth/notices: the published notices the caller sees, and their read state. */
@inject()
export default class NoticesController {
  static contract = contract({
    index: {
      summary: 'Published notices (latest 100), unread first, with the unread count',
      data: ownNoticesSchema,
    },
    read: { summary: 'Mark a published notice read', status: 204 },
  })

  constructor(protected notices: OwnNoticeService) {}

  async index(ctx: HttpContext) {
    const user = ctx.auth.use('jwt').getUserOrFail()
    const body = await this.notices.answer(user.id, (notices) =>
      Buffer.from(ownNoticesJson(notices))
    )
    ctx.response.header('Cache-Control', 'no-store')
    ctx.response.header('Content-Type', 'application/json; charset=utf-8')
    return ctx.response.send(body)
  }

  async read(ctx: HttpContext) {
    await this.notices.markRead(ctx.auth.use('jwt').getUserOrFail().id, ctx.params.id)
    return ctx.response.noContent()
  }
}
