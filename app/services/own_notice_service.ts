import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Notice from '#models/notice'
import { notFound } from '#exceptions/api_exception'
import { versionedCache } from '#core/cache'
import { preparedQuery } from '#core/prepared_query'

/** The latest notices a reader gets (the unread count covers all of them). */
const SHOWN = 100

/**
 * Every visible notice, newest first, held under the notices version (bumped by triggers on every
 * write of `notices`: a new, edited or deleted notice shows on the next request) and only until
 * the next scheduled one falls due (visible then without a write). The bell is polled by every
 * open console every minute: while nothing changed it costs one statement, the version and the
 * reader's read state, and the same Notice objects come back (their JSON is reused).
 */
const visibleNotices = versionedCache<'visible', Notice[]>('visible-notices', {
  max: 1,
  maxBytes: 16 * 1024 * 1024,
})

/** The notices version and the ids the reader has read, in one statement. */
const READ_STATE = `SELECT v.version, r.notice_id FROM notices_version v
  LEFT JOIN notice_reads r ON r.user_id = ? WHERE v.id = 1`

/**
 * The notices a signed-in administrator sees (GET /api/auth/notices): published, with
 * publishedAt reached; unread first, then newest. Read state is per (user, notice).
 */
export default class OwnNoticeService {
  async list(userId: number) {
    const { version, read } = await this.readState(userId)
    const visible = await this.visible(version)
    const unread = visible.filter((notice) => !read.has(notice.id))
    const shown = [...unread, ...visible.filter((notice) => read.has(notice.id))]
    return {
      unread: unread.length,
      notices: shown.slice(0, SHOWN).map((notice) => ({ notice, read: read.has(notice.id) })),
    }
  }

  /** Marks a visible notice read (again: no change). 404 for any other id. */
  async markRead(userId: number, id: number) {
    const { version } = await this.readState(userId)
    const visible = await this.visible(version)
    if (!visible.some((notice) => notice.id === id)) throw notFound()
    const now = DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat)
    await db
      .table('notice_reads')
      .insert({ notice_id: id, user_id: userId, read_at: now })
      .onConflict(['user_id', 'notice_id'])
      .ignore()
  }

  private async readState(userId: number) {
    const rows = await preparedQuery<{ version: number | string; notice_id: number | null }>(
      READ_STATE,
      [userId]
    )
    const read = new Set<number>()
    for (const row of rows) if (row.notice_id !== null) read.add(Number(row.notice_id))
    return { version: Number(rows[0].version), read }
  }

  /**
   * The visible notices at notices `version` (read before them: a write in between makes them
   * newer than their tag, never older), newest first: held (see visibleNotices), or read.
   */
  private async visible(version: number): Promise<Notice[]> {
    const held = visibleNotices.get('visible', version)
    if (held) return held
    const now = DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat)
    const published = () => Notice.query().where('notices.status', 'published')
    const [notices, next] = await Promise.all([
      published()
        .where('notices.published_at', '<=', now)
        .orderBy('notices.published_at', 'desc')
        .orderBy('notices.id', 'desc'),
      published().where('notices.published_at', '>', now).orderBy('notices.published_at').first(),
    ])
    // What a notice weighs: its texts, their rendering (about twice the source), the model.
    const bytes = notices.reduce((sum, notice) => sum + 3 * notice.body.length + 1000, 0)
    const validUntil = next?.publishedAt?.toMillis()
    visibleNotices.set('visible', notices, version, { bytes, validUntil })
    return notices
  }
}
