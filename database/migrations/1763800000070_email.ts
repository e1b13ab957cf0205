import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Email (docs/email.md):
 *
 * - `users.email_verified_at`: set when the owner enters the code mailed to the address; any
 *   change of the address clears it (the User model). Only verified addresses receive mails.
 * - `email_tokens`: single-use secrets sent by mail, stored hashed: a password-reset or
 *   device link (SHA-256 of 256 random bits) or an address's 6-digit code (HMAC with a key
 *   derived from APP_KEY, `email` = the address it was sent to, `attempts` = wrong codes).
 *   Times in epoch ms, as device_tokens.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('users', (table) => {
      table.timestamp('email_verified_at', { useTz: true }).nullable()
    })
    this.schema.createTable('email_tokens', (table) => {
      table.increments('id')
      table.string('purpose', 16).notNullable()
      table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE')
      table.string('token_hash', 64).notNullable().unique()
      table.string('email', 255).nullable()
      table.integer('attempts').notNullable().defaultTo(0)
      table.bigInteger('created_at').notNullable()
      table.bigInteger('expires_at').notNullable()
      table.bigInteger('used_at').nullable()
      table.index(['user_id', 'purpose'])
    })
  }

  async down() {
    this.schema.dropTable('email_tokens')
    this.schema.alterTable('users', (table) => {
      table.dropColumn('email_verified_at')
    })
  }
}
