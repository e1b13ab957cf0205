import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Accountability (docs/architecture.md, "Accountability"): sessions behind every admin JWT and the login log.
 * No column ever holds a password, digest, captcha credential, device token or JWT.
 */
export default class extends BaseSchema {
  async up() {
    // One row per login; its id is the JWT's `jti`. The guard reads it with the account row.
    this.schema.createTable('admin_sessions', (table) => {
      table.string('id', 32).primary()
      table
        .integer('user_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table.string('ip', 64).notNullable()
      table.string('user_agent', 255).notNullable().defaultTo('')
      // Epoch milliseconds, like device_tokens: compared in the guard without date parsing.
      table.bigInteger('created_at').notNullable()
      // Written at most once a minute per session (coarse on purpose: no write per request).
      table.bigInteger('last_seen_at').notNullable()
      table.bigInteger('expires_at').notNullable()
      table.bigInteger('ended_at').nullable()
      table.string('end_reason', 32).nullable()
      table.index(['user_id'])
      table.index(['expires_at'])
    })

    this.schema.createTable('login_logs', (table) => {
      table.bigIncrements('id')
      table.timestamp('created_at', { useTz: true }).notNullable()
      // As typed (bounded), so attempts on unknown accounts are visible too.
      table.string('account', 64).notNullable()
      table
        .integer('user_id')
        .unsigned()
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('SET NULL')
      table.string('ip', 64).notNullable()
      table.string('user_agent', 255).notNullable().defaultTo('')
      table.string('outcome', 32).notNullable()
      table.index(['created_at'])
      table.index(['account', 'created_at'])
    })
  }

  async down() {
    this.schema.dropTable('login_logs')
    this.schema.dropTable('admin_sessions')
  }
}
