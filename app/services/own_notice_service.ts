import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Notice from '#models/notice'
import { notFound } from '#exceptions/api_exception'
import { versionedCache } from '#core/cache'
import { versionRead } from '#core/fresh_read'
import { preparedQuery } from '#core/prepared_query'
import { renderNotice } from '#services/notice_markdown'

/** The latest notices a reader gets (the unread count covers all of them). */
const SHOWN = 100

/** A visible notice, its body rendered when first shown (once per notices version). */
type Visible = { notice: Notice; bodyHtml?: string }

/**
 * Every visible notice, newest first, held under the notices version (bumped by triggers on every
 * write of `notices`: a new, edited or deleted notice shows on the next request) and only until
 * the next scheduled one falls due (visible then without a write). The bell is polled by every
 * open console every minute: it costs the version read and the reader's read state.
 */
const noticesVersion = versionRead('notices_version')
const visibleNotices = versionedCache<'visible', Visible[]>('visible-notices', {
  max: 1,
  maxBytes: 16 * 1024 * 1024,
})

/**
 * The notices a signed-in administrator sees (GET /api/auth/notices): published, with
 * publishedAt reached; unread first, then newest. Read state is per (user, notice).
 */
export default class OwnNoticeService {
  async list(userId: number) {
    const [visible, reads] = await Promise.all([
      this.visible(),
      preparedQuery<{ notice_id: number }>('SELECT notice_id FROM notice_reads WHERE user_id = ?', [
        userId,
      ]),
    ])
    const read = new Set(reads.map((row) => Number(row.notice_id)))
    const unread = visible.filter((entry) => !read.has(entry.notice.id))
    const shown = [...unread, ...visible.filter((entry) => read.has(entry.notice.id))]
    return {
      unread: unread.length,
      notices: shown.slice(0, SHOWN).map((entry) => ({
        notice: entry.notice,
        bodyHtml: (entry.bodyHtml ??= renderNotice(entry.notice.body)),
        read: read.has(entry.notice.id),
      })),
    }
  }

  /** Marks a visible notice read (again: no change). 404 for any other id. */
  async markRead(userId: number, id: number) {
    const visible = await this.visible()
    if (!visible.some((entry) => entry.notice.id === id)) throw notFound()
    const now = DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat)
    await db
      .table('notice_reads')
      .insert({ notice_id: id, user_id: userId, read_at: now })
      .onConflict(['user_id', 'notice_id'])
      .ignore()
  }

  /** The visible notices, newest first: held (see visibleNotices), or read. */
  private async visible(): Promise<Visible[]> {
    // Read before the notices: a write in between makes them newer than their tag, never older.
    const version = await noticesVersion.get()
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
    const visible = notices.map((notice) => ({ notice }))
    // What a notice weighs: its texts, rendered too (about twice the source), and the model.
    const bytes = notices.reduce((sum, notice) => sum + 3 * notice.body.length + 1000, 0)
    const validUntil = next?.publishedAt?.toMillis()
    visibleNotices.set('visible', visible, version, { bytes, validUntil })
    return visible
  }
}
