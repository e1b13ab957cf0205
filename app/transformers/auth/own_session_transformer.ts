import { BaseTransformer } from '@adonisjs/core/transformers'
import type AdminSession from '#models/admin_session'
import { named, s } from '#openapi/schema'

const iso = (ms: number) => new Date(ms).toISOString()

/** Response contract (OpenAPI): one of the caller's sessions. */
export const ownSessionSchema = named(
  'OwnSession',
  s.object({
    id: s.string(),
    current: s.boolean(),
    ip: s.string(),
    userAgent: s.string(),
    createdAt: s.dateTime(),
    lastSeenAt: s.dateTime(),
    expiresAt: s.dateTime(),
  })
)

/** One of the caller's own sessions; `current` marks the one this request came with. */
export default class OwnSessionTransformer extends BaseTransformer<AdminSession> {
  toObject() {
    const session = this.resource
    return {
      id: session.id,
      current: Boolean(session.$extras.current),
      ip: session.ip,
      userAgent: session.userAgent,
      createdAt: iso(session.createdAt),
      lastSeenAt: iso(session.lastSeenAt),
      expiresAt: iso(session.expiresAt),
    }
  }
}
