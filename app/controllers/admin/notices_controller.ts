import { inject } from '@adonisjs/core'
import type Notice from '#models/notice'
import NoticeService from '#services/admin/notice_service'
import { CrudController } from '#controllers/admin/crud'
import NoticeTransformer, { noticeSchema } from '#transformers/admin/notice_transformer'
import {
  createNoticeValidator,
  listNoticesValidator,
  updateNoticeValidator,
} from '#validators/admin/notice'
import { contract } from '#openapi/contract'

/** /api/admin/notices (start/routes/admin.ts declares the codes). */
@inject()
export default class NoticesController extends CrudController<Notice> {
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

  protected transformer = NoticeTransformer

  constructor(protected service: NoticeService) {
    super()
  }
}
