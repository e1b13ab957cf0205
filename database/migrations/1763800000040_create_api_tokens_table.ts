import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * API tokens for automation (app/auth/api_tokens.ts, docs/architecture.md, "API tokens"): created
 * by a signed-in administrator for themselves, sent as `Authorization: Bearer rbac_...` on admin
 * routes. Only the SHA-256 digest of the token is stored. `token_version` is the owner's
 * tokenVersion at creation: a password change or reset, or disabling the account, moves the
 * owner's and kills the token for good. Deleted with the account.
 *
 * No access-version trigger: the snapshot statement does not read this table. The guard reads the
 * token row (its codes) afresh on every request and intersects them with the owner's snapshot,
 * so nothing cached depends on it.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('api_tokens', (table) => {
      table.increments('id')
      table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE')
      table.string('name', 64).notNullable()
      table.string('token_hash', 64).notNullable().unique()
      // The last characters of the token, so a leaked string can be matched to its row.
      table.string('hint', 8).notNullable()
      // JSON array of permission codes (what the token may do, within what the owner holds).
      table.text('permissions').notNullable()
      table.integer('token_version').notNullable()
      // Epoch milliseconds, like admin_sessions: compared in the guard without date parsing.
      table.bigInteger('created_at').notNullable()
      table.bigInteger('expires_at').notNullable()
      // Written at most once a minute per token (coarse on purpose: no write per request).
      table.bigInteger('last_used_at').nullable()
      table.string('last_used_ip', 64).nullable()
      table.index(['user_id'])
    })
  }

  async down() {
    this.schema.dropTable('api_tokens')
  }
}
