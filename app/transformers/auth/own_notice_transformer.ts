import { BaseTransformer } from '@adonisjs/core/transformers'
import type Notice from '#models/notice'
import { named, s } from '#openapi/schema'
import { ownNotice } from '#resources/notices'

/** Response contract (OpenAPI): a published notice as its reader sees it. */
export const ownNoticeSchema = named('OwnNotice', ownNotice.schema)
export const ownNoticesSchema = named(
  'OwnNotices',
  s.object({ unread: s.integer({ minimum: 0 }), notices: s.array(ownNotice.schema) })
)

/** A notice with its rendered body (OwnNoticeService renders it once per notices version). */
type Shown = { notice: Notice; bodyHtml: string; read: boolean }

export class OwnNoticeTransformer extends BaseTransformer<Shown> {
  toObject() {
    const { notice, bodyHtml, read } = this.resource
    return { ...this.pick(notice, ownNotice.keys), bodyHtml, read }
  }
}

export default class OwnNoticesTransformer extends BaseTransformer<{
  unread: number
  notices: Shown[]
}> {
  toObject() {
    return {
      unread: this.resource.unread,
      notices: this.resource.notices.map((notice) => new OwnNoticeTransformer(notice).toObject()),
    }
  }
}
