import { DateTime } from 'luxon'
import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Password lifecycle (docs/architecture.md, "Password lifecycle and own profile"):
 * - `password_change_required`: set when an administrator, a command or the seeder chose the
 *   password (createAccount, resetPassword), cleared by the owner's own change;
 * - `password_changed_at`: when the current password was set (PASSWORD_MAX_AGE_DAYS counts from
 *   it). Accounts that predate the column count from this migration;
 * - `password_history`: the argon2id digests of the account's latest PASSWORD_HISTORY passwords
 *   (the current one included), which the owner's change may not reuse.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('users', (table) => {
      table.boolean('password_change_required').notNullable().defaultTo(false)
      // Nullable: SQLite cannot add a column with a CURRENT_TIMESTAMP default; set below.
      table.timestamp('password_changed_at', { useTz: true }).nullable()
    })
    this.defer(async (db) => {
      const now = DateTime.utc().toFormat(db.dialect.dateTimeFormat)
      await db.from('users').update({ password_changed_at: now })
    })
    this.schema.createTable('password_history', (table) => {
      table.increments('id').notNullable()
      table.integer('user_id').unsigned().notNullable().references('users.id').onDelete('CASCADE')
      table.string('digest', 255).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.index(['user_id', 'id'], 'password_history_user_id_index')
    })
  }

  async down() {
    this.schema.dropTable('password_history')
    this.schema.alterTable('users', (table) => {
      table.dropColumn('password_changed_at')
      table.dropColumn('password_change_required')
    })
  }
}
