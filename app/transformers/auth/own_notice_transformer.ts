import { BaseTransformer } from '@adonisjs/core/transformers'
import type Notice from '#models/notice'
import { named, s } from '#openapi/schema'
import { ownNotice } from '#resources/notices'
import { renderNotice } from '#services/notice_markdown'

/** Response contract (OpenAPI): a published notice as its reader sees it. */
export const ownNoticeSchema = named('OwnNotice', ownNotice.schema)
export const ownNoticesSchema = named(
  'OwnNotices',
  s.object({ unread: s.integer({ minimum: 0 }), notices: s.array(ownNotice.schema) })
)

export class OwnNoticeTransformer extends BaseTransformer<Notice> {
  toObject() {
    return {
      ...this.pick(this.resource, ownNotice.keys),
      bodyHtml: renderNotice(this.resource.body),
      read: Boolean(this.resource.$extras.read_at),
    }
  }
}

export default class OwnNoticesTransformer extends BaseTransformer<{
  unread: number
  notices: Notice[]
}> {
  toObject() {
    return {
      unread: this.resource.unread,
      notices: this.resource.notices.map((notice) => new OwnNoticeTransformer(notice).toObject()),
    }
  }
}
