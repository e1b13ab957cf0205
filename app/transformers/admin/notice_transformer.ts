import { BaseTransformer } from '@adonisjs/core/transformers'
import type Notice from '#models/notice'
import { named } from '#openapi/schema'
import { notice } from '#resources/notices'
import { renderNotice } from '#services/notice_markdown'

/** Response contract (OpenAPI): `body` is the Markdown source, `bodyHtml` its safe rendering. */
export const noticeSchema = named('Notice', notice.schema)

export default class NoticeTransformer extends BaseTransformer<Notice> {
  toObject() {
    return { ...this.pick(this.resource, notice.keys), bodyHtml: renderNotice(this.resource.body) }
  }
}
