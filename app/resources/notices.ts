import { NOTICE_LEVELS, NOTICE_STATUSES } from '#models/notice'
import vine from '@vinejs/vine'
import { DateTime } from 'luxon'
import { computed, s, shape, sortable } from '#openapi/schema'
import { plainText } from '#validators/admin/common'
import { dateTimeField } from '#validators/admin/article'
import { line, lines } from '#validators/text'
import { writable } from '#validators/writable'

/** `body` is the Markdown source, `bodyHtml` its safe rendering. */
export const notice = shape({
  id: s.integer(),
  title: s.string(),
  body: s.string(),
  bodyHtml: computed(s.string()),
  level: s.enum(NOTICE_LEVELS),
  status: s.enum(NOTICE_STATUSES),
  publishedAt: s.nullable(s.dateTime()),
  authorId: s.nullable(s.integer()),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
export const noticeSort = sortable(notice, ['id', 'title', 'level', 'status', 'publishedAt'])

/** A published notice as its reader sees it: the rendered body, whether they have read it. */
export const ownNotice = shape({
  id: s.integer(),
  title: s.string(),
  bodyHtml: computed(s.string()),
  level: s.enum(NOTICE_LEVELS),
  publishedAt: s.nullable(s.dateTime()),
  read: computed(s.boolean()),
})

/**
 * What a request writes (app/validators/writable.ts: the validators of
 * app/validators/admin/notice.ts and a new notice's defaults derive from it). The body is
 * Markdown source (raw HTML in it is shown as text: app/services/notice_markdown.ts).
 */
export const noticeWrites = writable({
  title: { rule: () => line(128).minLength(1).use(plainText()) },
  body: { rule: () => lines(20_000).minLength(1) },
  level: { rule: () => vine.enum(NOTICE_LEVELS).optional(), default: 'info' },
  status: { rule: () => vine.enum(NOTICE_STATUSES).optional(), default: 'draft' },
  /** Now, for a notice published without one. */
  publishedAt: {
    rule: dateTimeField,
    default: (input: { status?: string }) => (input.status === 'published' ? DateTime.utc() : null),
  },
})
