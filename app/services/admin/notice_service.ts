import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { Infer } from '@vinejs/vine/types'
import Notice from '#models/notice'
import { type Actor, findOr404, ordered, paginate, whereKeyword } from '#services/admin/common'
import { auditCreated, deleteAudited, saveAudited } from '#services/admin/writes'
import { definedOnly } from '#core/defined_only'
import { noticeSort } from '#resources/notices'
import type {
  createNoticeValidator,
  listNoticesValidator,
  updateNoticeValidator,
} from '#validators/admin/notice'

/**
 * Notices to administrators (their own view: app/services/own_notice_service.ts). A notice
 * published without a time is published now; a later time schedules it.
 */
export default class NoticeService {
  async list(filters: Infer<typeof listNoticesValidator>) {
    const query = Notice.query()
    whereKeyword(query, ['title'], filters.keyword)
    if (filters.status) query.where('status', filters.status)
    if (filters.level) query.where('level', filters.level)
    const order = ordered(query, filters.sort, noticeSort, [{ column: 'id', order: 'desc' }])
    return paginate(order, filters)
  }

  show(id: number) {
    return findOr404(Notice, id)
  }

  create(actor: Actor, data: Infer<typeof createNoticeValidator>) {
    return db.transaction(async (trx) => {
      const status = data.status ?? 'draft'
      const created = await Notice.create(
        {
          title: data.title,
          body: data.body,
          level: data.level ?? 'info',
          status,
          publishedAt: data.publishedAt ?? (status === 'published' ? DateTime.utc() : null),
          authorId: actor.id,
        },
        { client: trx }
      )
      await auditCreated(trx, actor, 'notice', created)
      return created
    })
  }

  update(actor: Actor, id: number, data: Infer<typeof updateNoticeValidator>) {
    return db.transaction(async (trx) => {
      const notice = await findOr404(Notice, id, trx)
      await saveAudited(trx, actor, 'notice', notice, () => {
        notice.merge(definedOnly(data))
        if (notice.status === 'published' && !notice.publishedAt)
          notice.publishedAt = DateTime.utc()
      })
      return notice
    })
  }

  async destroy(actor: Actor, id: number) {
    await db.transaction(async (trx) => {
      // Read state goes with it (ON DELETE CASCADE).
      await deleteAudited(trx, actor, 'notice', await findOr404(Notice, id, trx))
    })
  }
}
