import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The two-step login (app/auth/mfa_tokens.ts): a right password of an account with a second factor
 * gets an `mfaToken` (256 random bits, stored as SHA-256, 5 minutes, single use, dead after 5
 * wrong codes) instead of a JWT. `token_version` binds it to the password it proved: a password
 * change or reset in between kills it.
 * `device_tokens.remembered`: set only when the person chose "remember this device" at a successful
 * second step; such a device skips the second step (the default is to ask).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('mfa_challenges', (table) => {
      table.string('token_hash', 64).primary()
      table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE')
      table.integer('token_version').notNullable()
      table.integer('failures').notNullable().defaultTo(0)
      table.bigInteger('created_at').notNullable()
      table.bigInteger('expires_at').notNullable()
      table.index(['user_id'], 'mfa_challenges_user_id_index')
      table.index(['expires_at'], 'mfa_challenges_expires_at_index')
    })
    this.schema.alterTable('device_tokens', (table) => {
      table.boolean('remembered').notNullable().defaultTo(false)
    })
  }

  async down() {
    this.schema.alterTable('device_tokens', (table) => {
      table.dropColumn('remembered')
    })
    this.schema.dropTable('mfa_challenges')
  }
}
