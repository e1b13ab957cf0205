import { BaseTransformer } from '@adonisjs/core/transformers'
import type AdminSession from '#models/admin_session'
import { named, s } from '#openapi/schema'

const iso = (ms: number) => new Date(ms).toISOString()

/** Response contract (OpenAPI): an online administrator's session. */
export const sessionSchema = named(
  'Session',
  s.object({
    id: s.string(),
    userId: s.integer(),
    account: s.nullable(s.string()),
    nickname: s.nullable(s.string()),
    ip: s.string(),
    userAgent: s.string(),
    createdAt: s.dateTime(),
    lastSeenAt: s.dateTime(),
    expiresAt: s.dateTime(),
  })
)

/** A live session as the online-administrators page shows it (`user` is preloaded). */
export default class SessionTransformer extends BaseTransformer<AdminSession> {
  toObject() {
    const session = this.resource
    return {
      id: session.id,
      userId: session.userId,
      account: session.user?.account ?? null,
      nickname: session.user?.nickname ?? null,
      ip: session.ip,
      userAgent: session.userAgent,
      createdAt: iso(session.createdAt),
      lastSeenAt: iso(session.lastSeenAt),
      expiresAt: iso(session.expiresAt),
    }
  }
}
