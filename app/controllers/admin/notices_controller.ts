import { inject } from '@adonisjs/core'
import type Notice from '#models/notice'
import NoticeService from '#services/admin/notice_service'
import { CrudController, crudContract } from '#controllers/admin/crud'
import NoticeTransformer, { noticeSchema } from '#transformers/admin/notice_transformer'
import {
  createNoticeValidator,
  listNoticesValidator,
  updateNoticeValidator,
} from '#validators/admin/notice'

/** /api/admin/notices (start/routes/admin.ts declares the codes). */
@inject()
export default class NoticesController extends CrudController<Notice> {
  static contract = crudContract({
    schema: noticeSchema,
    validators: {
      list: listNoticesValidator,
      create: createNoticeValidator,
      update: updateNoticeValidator,
    },
    summaries: {
      index: 'List notices',
      show: 'One notice',
      store: 'Create a notice (Markdown body; published without a time: now)',
      update: 'Update, publish or withdraw a notice',
      destroy: 'Delete a notice and its read state',
    },
  })

  protected transformer = NoticeTransformer

  constructor(protected service: NoticeService) {
    super()
  }
}
