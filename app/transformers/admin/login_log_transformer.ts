import { BaseTransformer } from '@adonisjs/core/transformers'
import type LoginLog from '#models/login_log'

/** One login attempt as the login-log page shows it. */
export default class LoginLogTransformer extends BaseTransformer<LoginLog> {
  toObject() {
    return this.pick(this.resource, [
      'id',
      'createdAt',
      'account',
      'userId',
      'ip',
      'userAgent',
      'outcome',
    ])
  }
}
