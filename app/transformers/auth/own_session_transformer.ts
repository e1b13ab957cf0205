import { BaseTransformer } from '@adonisjs/core/transformers'
import type AdminSession from '#models/admin_session'
import { named } from '#openapi/schema'
import { ownSession } from '#resources/sessions'
import { timesOf } from '#transformers/admin/session_transformer'

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
