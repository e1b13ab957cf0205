import { NOTICE_LEVELS, NOTICE_STATUSES } from '#models/notice'
import { computed, s, shape, sortable } from '#openapi/schema'

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
