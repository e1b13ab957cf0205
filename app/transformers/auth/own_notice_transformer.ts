import { BaseTransformer } from '@adonisjs/core/transformers'
import type Notice from '#models/notice'
import type { OwnNotices } from '#services/own_notice_service'
import { named, s } from '#openapi/schema'
import { ownNotice } from '#resources/notices'
import { renderNotice } from '#services/notice_markdown'

/** Response contract (OpenAPI): a published notice as its reader sees it. */
export const ownNoticeSchema = named('OwnNotice', ownNotice.schema)
export const ownNoticesSchema = named(
  'OwnNotices',
  s.object({ unread: s.integer({ minimum: 0 }), notices: s.array(ownNotice.schema) })
)

/** A notice as every reader sees it (the reader's `read` is added by OwnNoticesJson). */
export class OwnNoticeTransformer extends BaseTransformer<Notice> {
  toObject() {
    return {
      ...this.pick(this.resource, ownNotice.keys),
      bodyHtml: renderNotice(this.resource.body),
    }
  }
}

/**
 * The bell's body as JSON text: each notice's part is rendered and encoded once per Notice object
 * (OwnNoticeService hands back the same objects while the notices version holds), then the
 * reader's `read` flags and count are filled in.
 */
const encoded = new WeakMap<Notice, string>()
export function ownNoticesJson(list: OwnNotices) {
  const items = list.notices.map(({ notice, read }) => {
    let json = encoded.get(notice)
    if (json === undefined) {
      json = JSON.stringify(new OwnNoticeTransformer(notice).toObject()).slice(0, -1)
      encoded.set(notice, json)
    }
    return `${json},"read":${read}}`
  })
  return `{"data":{"unread":${list.unread},"notices":[${items.join(',')}]}}`
}
