import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The ceiling on password guessing and the owner's keys (docs/front-door.md, "The ceiling"):
 *
 * - `device_tokens`: a token rotates on every sign-in; `previous_hash` keeps the superseded
 *   digest so that presenting it again is recognised as theft (every device of the account is
 *   revoked). `ip` and `user_agent` of the last use, for the owner's device list.
 * - `admin_sessions.device_id`: the device a session signed in with (logout can forget it).
 * - `users`: the previous sign-in (`previous_login_at`, `previous_login_ip`) and the failed
 *   password checks since then, shown to the owner in /me. `last_login_ip` pairs with the
 *   existing `last_login_at`.
 * - `captcha_challenges.drawn_at`: when the slider was drawn (epoch ms); a track cannot claim
 *   to have lasted longer than the time since.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('device_tokens', (table) => {
      table.string('previous_hash', 64).nullable().unique()
      table.string('ip', 64).nullable()
      table.string('user_agent', 255).nullable()
    })
    this.schema.alterTable('admin_sessions', (table) => {
      table.string('device_id', 32).nullable()
    })
    this.schema.alterTable('users', (table) => {
      table.string('last_login_ip', 64).nullable()
      table.timestamp('previous_login_at', { useTz: true }).nullable()
      table.string('previous_login_ip', 64).nullable()
      table.integer('failed_logins').notNullable().defaultTo(0)
      table.integer('failed_before_login').notNullable().defaultTo(0)
    })
    this.schema.alterTable('captcha_challenges', (table) => {
      table.bigInteger('drawn_at').nullable()
    })
  }

  async down() {
    this.schema.alterTable('captcha_challenges', (table) => {
      table.dropColumn('drawn_at')
    })
    this.schema.alterTable('users', (table) => {
      for (const column of [
        'last_login_ip',
        'previous_login_at',
        'previous_login_ip',
        'failed_logins',
        'failed_before_login',
      ]) {
        table.dropColumn(column)
      }
    })
    this.schema.alterTable('admin_sessions', (table) => {
      table.dropColumn('device_id')
    })
    this.schema.alterTable('device_tokens', (table) => {
      table.dropUnique(['previous_hash'])
      table.dropColumns('previous_hash', 'ip', 'user_agent')
    })
  }
}
