import { DateTime } from 'luxon'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Infer } from '@vinejs/vine/types'
import Notice from '#models/notice'
import { type Actor, ResourceService, findOr404 } from '#services/admin/common'
import { createAudited, destroyAudited, updateAudited } from '#services/admin/writes'
import { definedOnly } from '#core/defined_only'
import { noticeSort, noticeWrites } from '#resources/notices'
import type {
  createNoticeValidator,
  listNoticesValidator,
  updateNoticeValidator,
} from '#validators/admin/notice'

/**
 * Notices to administrators (their own view: app/services/own_notice_service.ts). A notice
 * published without a time is published now; a later time schedules it.
 */
export default class NoticeService extends ResourceService<
  typeof Notice,
  Infer<typeof listNoticesValidator>
> {
  constructor() {
    super(Notice, {
      keyword: ['title'],
      exact: ['status', 'level'],
      sortable: noticeSort,
      order: [{ column: 'id', order: 'desc' }],
    })
  }

  create(actor: Actor, data: Infer<typeof createNoticeValidator>) {
    return createAudited(actor, 'notice', Notice, {
      ...noticeWrites.withDefaults(data),
      authorId: actor.id,
    })
  }

  update(actor: Actor, id: number, data: Infer<typeof updateNoticeValidator>) {
    const find = (trx: TransactionClientContract) => findOr404(Notice, id, trx)
    return updateAudited(actor, 'notice', find, (notice) => {
      notice.merge(definedOnly(data))
      if (notice.status === 'published' && !notice.publishedAt) notice.publishedAt = DateTime.utc()
    })
  }

  /** Read state goes with it (ON DELETE CASCADE). */
  destroy(actor: Actor, id: number) {
    return destroyAudited(actor, 'notice', (trx) => findOr404(Notice, id, trx))
  }
}
