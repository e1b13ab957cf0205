import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import Notice from '#models/notice'
import { notFound } from '#exceptions/api_exception'
import { versionedCache } from '#core/cache'
import { FreshRead } from '#core/fresh_read'
import { preparedQuery } from '#core/prepared_query'

/** The latest notices a reader gets (the unread count covers all of them). */
const SHOWN = 100

export type OwnNotices = { unread: number; notices: { notice: Notice; read: boolean }[] }

/**
 * The bell is polled by every open console every minute. Triggers bump `notices_version.version`
 * on every write of `notices` and `reads_version` on every write of `notice_reads` (migration
 * 1763800000320), read afresh by each request (FreshRead: shared by concurrent ones). Held while
 * they stay: every visible notice, newest first (under `version`, and only until the next
 * scheduled one falls due: visible then without a write), and each reader's encoded answer
 * (under both). A new, edited, deleted or read notice so shows on the next request; when nothing
 * changed, the bell costs the shared version read.
 */
const versions = new FreshRead(async () => {
  const [row] = await preparedQuery<{ version: string | number; reads_version: string | number }>(
    'SELECT version, reads_version FROM notices_version WHERE id = 1',
    []
  )
  return { notices: Number(row.version), reads: Number(row.reads_version) }
})
type Visible = { notices: Notice[]; validUntil?: number }
const visibleNotices = versionedCache<'visible', Visible>('visible-notices', {
  max: 1,
  maxBytes: 16 * 1024 * 1024,
})
const answers = versionedCache<number, unknown>('notice-bells', { max: 10_000 })

/**
 * The notices a signed-in administrator sees (GET /api/auth/notices): published, with
 * publishedAt reached; unread first, then newest. Read state is per (user, notice).
 */
export default class OwnNoticeService {
  /** The reader's notices, as `encode` makes them: held while both versions stay. */
  async answer<T>(userId: number, encode: (notices: OwnNotices) => T): Promise<T> {
    // Read before what they cover: a write in between makes an answer newer than its tag.
    const version = await versions.get()
    const tag = `${version.notices}:${version.reads}`
    const held = answers.get(userId, tag)
    if (held !== undefined) return held as T
    const [visible, reads] = await Promise.all([
      this.visible(version.notices),
      preparedQuery<{ notice_id: number }>('SELECT notice_id FROM notice_reads WHERE user_id = ?', [
        userId,
      ]),
    ])
    const read = new Set(reads.map((row) => Number(row.notice_id)))
    const unread = visible.notices.filter((notice) => !read.has(notice.id))
    const shown = [...unread, ...visible.notices.filter((notice) => read.has(notice.id))]
    const encoded = encode({
      unread: unread.length,
      notices: shown.slice(0, SHOWN).map((notice) => ({ notice, read: read.has(notice.id) })),
    })
    answers.set(userId, encoded, tag, { validUntil: visible.validUntil })
    return encoded
  }

  /** Marks a visible notice read (again: no change). 404 for any other id. */
  async markRead(userId: number, id: number) {
    const version = await versions.get()
    const visible = await this.visible(version.notices)
    if (!visible.notices.some((notice) => notice.id === id)) throw notFound()
    const now = DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat)
    await db
      .table('notice_reads')
      .insert({ notice_id: id, user_id: userId, read_at: now })
      .onConflict(['user_id', 'notice_id'])
      .ignore()
  }

  /** The visible notices at notices `version`, newest first: held, or read. */
  private async visible(version: number): Promise<Visible> {
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
    const visible = { notices, validUntil: next?.publishedAt?.toMillis() }
    // What a notice weighs: its texts, their rendering (about twice the source), the model.
    const bytes = notices.reduce((sum, notice) => sum + 3 * notice.body.length + 1000, 0)
    visibleNotices.set('visible', visible, version, { bytes, validUntil: visible.validUntil })
    return visible
  }
}
