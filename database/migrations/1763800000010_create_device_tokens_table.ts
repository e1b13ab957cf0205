import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Device tokens (OWASP "device cookies"): issued at a successful login, stored as SHA-256
 * digests, bound to one account. A login presenting a valid one is limited per (account, device)
 * only, so anonymous failures cannot lock the owner out. Deleted with the account, and on a
 * password change or reset and when the account is disabled.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('device_tokens', (table) => {
      table.string('id', 32).primary()
      table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE')
      table.string('token_hash', 64).notNullable().unique()
      table.bigInteger('created_at').notNullable()
      table.bigInteger('last_used_at').notNullable()
      table.bigInteger('expires_at').notNullable()
      table.index(['user_id'], 'device_tokens_user_id_index')
    })
  }

  async down() {
    this.schema.dropTable('device_tokens')
  }
}
