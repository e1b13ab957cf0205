import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Server-side state of the login flow, shared by every instance through the database:
 * captcha challenges (the answer never leaves the server) and one-time login credentials
 * (stored as SHA-256 digests). Both are single use: consuming one is a DELETE ... RETURNING,
 * so under concurrency exactly one caller wins.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('captcha_challenges', (table) => {
      table.string('id', 64).primary()
      table.integer('answer_x').notNullable()
      table.bigInteger('expires_at').notNullable()
      table.index(['expires_at'], 'captcha_challenges_expires_at_index')
    })
    this.schema.createTable('captcha_tokens', (table) => {
      table.string('token_hash', 64).primary()
      table.bigInteger('expires_at').notNullable()
      table.index(['expires_at'], 'captcha_tokens_expires_at_index')
    })
  }

  async down() {
    this.schema.dropTable('captcha_tokens')
    this.schema.dropTable('captcha_challenges')
  }
}
