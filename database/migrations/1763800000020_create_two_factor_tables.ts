import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The second factor (TOTP, RFC 6238; app/auth/two_factor.ts):
 * - `users.two_factor_confirmed_at`: set when the person confirmed a code, null otherwise. The one
 *   flag the guard's row carries (/me `twoFactorEnabled`, AUTH_REQUIRE_2FA), never the secret.
 * - `two_factor_secrets`: one per account, the secret encrypted with APP_KEY (AES-256-GCM), pending
 *   until `users.two_factor_confirmed_at` is set; `last_used_step` is the last TOTP time step
 *   accepted, so a code is accepted once.
 * - `two_factor_recovery_codes`: SHA-256 digests of the 10 recovery codes; a used one is deleted.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('users', (table) => {
      table.timestamp('two_factor_confirmed_at', { useTz: true }).nullable()
    })
    this.schema.createTable('two_factor_secrets', (table) => {
      table.integer('user_id').unsigned().primary().references('users.id').onDelete('CASCADE')
      table.text('secret').notNullable()
      table.bigInteger('last_used_step').nullable()
      table.bigInteger('created_at').notNullable()
    })
    this.schema.createTable('two_factor_recovery_codes', (table) => {
      table.increments('id').notNullable()
      table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE')
      table.string('code_hash', 64).notNullable()
      table.bigInteger('created_at').notNullable()
      table.unique(['user_id', 'code_hash'], { indexName: 'two_factor_recovery_codes_user_code' })
    })
  }

  async down() {
    this.schema.dropTable('two_factor_recovery_codes')
    this.schema.dropTable('two_factor_secrets')
    this.schema.alterTable('users', (table) => {
      table.dropColumn('two_factor_confirmed_at')
    })
  }
}
