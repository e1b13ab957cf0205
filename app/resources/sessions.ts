import { computed, s, shape, sortable } from '#openapi/schema'

/** Session times are stored as epoch milliseconds: computed into ISO 8601. */
const sessionTimes = {
  createdAt: computed(s.dateTime()),
  lastSeenAt: computed(s.dateTime()),
  expiresAt: computed(s.dateTime()),
}

/** An online administrator's session (`user` is preloaded). */
export const session = shape({
  id: s.string(),
  userId: s.integer(),
  account: computed(s.nullable(s.string())),
  nickname: computed(s.nullable(s.string())),
  ip: s.string(),
  userAgent: s.string(),
  ...sessionTimes,
})
/** What `sort` accepts on the online-administrators list. */
export const sessionSort = sortable(session, ['createdAt', 'lastSeenAt', 'expiresAt', 'ip'])

/** One of the caller's own sessions; `current` marks the one this request came with. */
export const ownSession = shape({
  id: s.string(),
  current: computed(s.boolean()),
  ip: s.string(),
  userAgent: s.string(),
  ...sessionTimes,
})
