import { BaseTransformer } from '@adonisjs/core/transformers'
import type AdminSession from '#models/admin_session'

const iso = (ms: number) => new Date(ms).toISOString()

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
