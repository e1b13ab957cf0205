import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Notice from '#models/notice'
import { notFound } from '#exceptions/api_exception'

/** The latest notices a reader gets (the unread count covers all of them). */
const SHOWN = 100

/**
 * The notices a signed-in administrator sees (GET /api/auth/notices): published, with
 * publishedAt reached; unread first, then newest. Read state is per (user, notice).
 */
export default class OwnNoticeService {
  async list(userId: number) {
    const visible = this.visible()
    const notices = await visible
      .clone()
      .leftJoin('notice_reads', (join) => {
        join.on('notice_reads.notice_id', 'notices.id').andOnVal('notice_reads.user_id', userId)
      })
      .select('notices.*', 'notice_reads.read_at')
      .orderByRaw('CASE WHEN notice_reads.read_at IS NULL THEN 0 ELSE 1 END')
      .orderBy('notices.published_at', 'desc')
      .orderBy('notices.id', 'desc')
      .limit(SHOWN)
    const [counted] = await visible
      .clone()
      .whereNotExists((read) =>
        read
          .from('notice_reads')
          .whereColumn('notice_reads.notice_id', 'notices.id')
          .where('notice_reads.user_id', userId)
      )
      .count('* as unread')
      .pojo<{ unread: number | string }>()
    return { unread: Number(counted.unread), notices }
  }

  /** Marks a visible notice read (again: no change). 404 for any other id. */
  async markRead(userId: number, id: number) {
    const notice = await this.visible().where('notices.id', id).first()
    if (!notice) throw notFound()
    const now = DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat)
    await db
      .table('notice_reads')
      .insert({ notice_id: id, user_id: userId, read_at: now })
      .onConflict(['user_id', 'notice_id'])
      .ignore()
  }

  private visible() {
    const now = DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat)
    return Notice.query()
      .where('notices.status', 'published')
      .where('notices.published_at', '<=', now)
  }
}
