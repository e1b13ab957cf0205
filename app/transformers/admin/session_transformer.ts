import { BaseTransformer } from '@adonisjs/core/transformers'
import type AdminSession from '#models/admin_session'
import { named } from '#openapi/schema'
import { session } from '#resources/sessions'

/** The computed session times (app/resources/sessions.ts): epoch milliseconds to ISO 8601. */
export const timesOf = (row: AdminSession) => ({
  createdAt: new Date(row.createdAt).toISOString(),
  lastSeenAt: new Date(row.lastSeenAt).toISOString(),
  expiresAt: new Date(row.expiresAt).toISOString(),
})

/** Response contract (OpenAPI): an online administrator's session. */
export const sessionSchema = named('Session', session.schema)

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
