import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Passkeys (WebAuthn; app/auth/passkeys.ts, docs/front-door.md, "Passkeys"):
 *
 * - `passkeys`: one row per registered credential. `credential_id` is the authenticator's id
 *   (base64url, unique across accounts), `public_key` the COSE key (base64url), `counter` the last
 *   signature counter seen (uint32), `transports` a JSON array of the browser's hints. Times in
 *   epoch ms, as device_tokens and api_tokens. Deleted with the account.
 * - `users.passkey_count`: how many the account has, rewritten in each passkey write's
 *   transaction, so the guard's one row says whether the account has a second factor
 *   (AUTH_REQUIRE_2FA counts passkeys) without another query.
 * - `passkey_challenges`: the live WebAuthn challenge of one binding (the session registering, the
 *   mfaToken signing in, or an (account, address) pair at the ceiling), as SHA-256 of what binds
 *   it; a new one replaces it; spent (deleted) by the first response, right or wrong; 5 minutes.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('passkeys', (table) => {
      table.increments('id')
      table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE')
      table.string('credential_id', 1400).notNullable().unique()
      table.text('public_key').notNullable()
      table.bigInteger('counter').notNullable().defaultTo(0)
      table.string('transports', 255).notNullable().defaultTo('[]')
      table.string('name', 64).notNullable()
      table.bigInteger('created_at').notNullable()
      table.bigInteger('last_used_at').nullable()
      table.index(['user_id'])
    })
    this.schema.alterTable('users', (table) => {
      table.integer('passkey_count').notNullable().defaultTo(0)
    })
    this.schema.createTable('passkey_challenges', (table) => {
      table.string('purpose', 16).notNullable()
      table.string('binding', 64).notNullable()
      table.string('challenge', 128).notNullable()
      table.bigInteger('expires_at').notNullable()
      table.primary(['purpose', 'binding'])
      table.index(['expires_at'])
    })
  }

  async down() {
    this.schema.dropTable('passkey_challenges')
    this.schema.alterTable('users', (table) => {
      table.dropColumn('passkey_count')
    })
    this.schema.dropTable('passkeys')
  }
}
