import { BaseTransformer } from '@adonisjs/core/transformers'
import type Notice from '#models/notice'
import { NOTICE_LEVELS } from '#models/notice'
import { computed, named, s, shape } from '#openapi/schema'
import { renderNotice } from '#services/notice_markdown'

const ownNotice = shape({
  id: s.integer(),
  title: s.string(),
  bodyHtml: computed(s.string()),
  level: s.enum(NOTICE_LEVELS),
  publishedAt: s.nullable(s.dateTime()),
  read: computed(s.boolean()),
})
/** A published notice as its reader sees it: the rendered body, whether they have read it. */
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
