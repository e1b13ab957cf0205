import { BaseTransformer } from '@adonisjs/core/transformers'
import type LoginLog from '#models/login_log'
import { named } from '#openapi/schema'
import { loginLog } from '#resources/login_logs'

/** Response contract (OpenAPI). */
export const loginLogSchema = named('LoginLog', loginLog.schema)

/** One login attempt as the login-log page shows it. */
export default class LoginLogTransformer extends BaseTransformer<LoginLog> {
  toObject() {
    return this.pick(this.resource, loginLog.keys)
  }
}
