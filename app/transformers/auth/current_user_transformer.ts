import type User from '#models/user'
import { BaseTransformer } from '@adonisjs/core/transformers'

/** The signed-in administrator's own profile: no password digest, no tokenVersion. */
export default class CurrentUserTransformer extends BaseTransformer<User> {
  toObject() {
    return this.pick(this.resource, [
      'id',
      'account',
      'nickname',
      'email',
      'status',
      'lastLoginAt',
      'createdAt',
    ])
  }
}
