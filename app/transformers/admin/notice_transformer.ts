import { BaseTransformer } from '@adonisjs/core/transformers'
import type Notice from '#models/notice'
import { NOTICE_LEVELS, NOTICE_STATUSES } from '#models/notice'
import { computed, named, s, shape, sortable } from '#openapi/schema'
import { renderNotice } from '#services/notice_markdown'

const notice = shape({
  id: s.integer(),
  title: s.string(),
  body: s.string(),
  bodyHtml: computed(s.string()),
  level: s.enum(NOTICE_LEVELS),
  status: s.enum(NOTICE_STATUSES),
  publishedAt: s.nullable(s.dateTime()),
  authorId: s.nullable(s.integer()),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
/** Response contract (OpenAPI): `body` is the Markdown source, `bodyHtml` its safe rendering. */
export const noticeSchema = named('Notice', notice.schema)
export const noticeSort = sortable(notice, ['id', 'title', 'level', 'status', 'publishedAt'])

export default class NoticeTransformer extends BaseTransformer<Notice> {
  toObject() {
    return { ...this.pick(this.resource, notice.keys), bodyHtml: renderNotice(this.resource.body) }
  }
}
