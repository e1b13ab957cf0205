import { BaseTransformer } from '@adonisjs/core/transformers'
import type AdminSession from '#models/admin_session'

const iso = (ms: number) => new Date(ms).toISOString()

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
