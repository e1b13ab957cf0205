import { BaseTransformer } from '@adonisjs/core/transformers'
import type AdminSession from '#models/admin_session'
import { computed, named, s, shape, sortable } from '#openapi/schema'

/** Session times are stored as epoch milliseconds: computed into ISO 8601. */
export const sessionTimes = {
  createdAt: computed(s.dateTime()),
  lastSeenAt: computed(s.dateTime()),
  expiresAt: computed(s.dateTime()),
}
export const timesOf = (session: AdminSession) => ({
  createdAt: new Date(session.createdAt).toISOString(),
  lastSeenAt: new Date(session.lastSeenAt).toISOString(),
  expiresAt: new Date(session.expiresAt).toISOString(),
})

const session = shape({
  id: s.string(),
  userId: s.integer(),
  account: computed(s.nullable(s.string())),
  nickname: computed(s.nullable(s.string())),
  ip: s.string(),
  userAgent: s.string(),
  ...sessionTimes,
})
/** Response contract (OpenAPI): an online administrator's session. */
export const sessionSchema = named('Session', session.schema)
/** What `sort` accepts on the online-administrators list. */
export const sessionSort = sortable(session, ['createdAt', 'lastSeenAt', 'expiresAt', 'ip'])

/** A live session as the online-administrators page shows it (`user` is preloaded). */
export default class SessionTransformer extends BaseTransformer<AdminSession> {
  toObject() {
    const { user } = this.resource
    return {
      ...this.pick(this.resource, session.keys),
      account: user?.account ?? null,
      nickname: user?.nickname ?? null,
      ...timesOf(this.resource),
    }
  }
}
