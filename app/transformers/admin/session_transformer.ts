import { BaseTransformer } from '@adonisjs/core/transformers'
import type AdminSession from '#models/admin_session'
import type User from '#models/user'
import { named } from '#openapi/schema'
import { session } from '#resources/sessions'

/** The computed session times (app/resources/sessions.ts): epoch milliseconds to ISO 8601. */
export const timesOf = (row: AdminSession) => ({
  createdAt: new Date(row.createdAt).toISOString(),
  lastSeenAt: new Date(row.lastSeenAt).toISOString(),
  expiresAt: new Date(row.expiresAt).toISOString(),
})

/** The owner of a session or an API token, as the monitors' lists show it (`user` preloaded). */
export const ownerOf = ({ user }: { user?: User | null }) => ({
  account: user?.account ?? null,
  nickname: user?.nickname ?? null,
})

/** Response contract (OpenAPI): an online administrator's session. */
export const sessionSchema = named('Session', session.schema)

/** A live session as the online-administrators page shows it (`user` is preloaded). */
export default class SessionTransformer extends BaseTransformer<AdminSession> {
  toObject() {
    return {
      ...this.pick(this.resource, session.keys),
      ...ownerOf(this.resource),
      ...timesOf(this.resource),
    }
  }
}
