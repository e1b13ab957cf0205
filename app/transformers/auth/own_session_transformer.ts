import { BaseTransformer } from '@adonisjs/core/transformers'
import type AdminSession from '#models/admin_session'
import { computed, named, s, shape } from '#openapi/schema'
import { sessionTimes, timesOf } from '#transformers/admin/session_transformer'

const ownSession = shape({
  id: s.string(),
  current: computed(s.boolean()),
  ip: s.string(),
  userAgent: s.string(),
  ...sessionTimes,
})
/** Response contract (OpenAPI): one of the caller's sessions. */
export const ownSessionSchema = named('OwnSession', ownSession.schema)

/** One of the caller's own sessions; `current` marks the one this request came with. */
export default class OwnSessionTransformer extends BaseTransformer<AdminSession> {
  toObject() {
    return {
      ...this.pick(this.resource, ownSession.keys),
      current: Boolean(this.resource.$extras.current),
      ...timesOf(this.resource),
    }
  }
}
