import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The audit log (app/services/audit_log.ts): every admin write, refused or done, and every ace
 * command that changes an account. `changes` holds { field: [before, after] } with secrets masked.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('audit_logs', (table) => {
      table.bigIncrements('id')
      table.timestamp('created_at', { useTz: true }).notNullable()
      table
        .integer('actor_id')
        .unsigned()
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('SET NULL')
      // The actor's account at the time, or `command:<name>` for a node ace command.
      table.string('actor', 80).notNullable()
      table.string('permission', 100).notNullable()
      table.string('target_type', 32).notNullable()
      table.string('target_id', 64).nullable()
      table.string('outcome', 16).notNullable()
      table.string('reason', 255).nullable()
      table.string('request_id', 64).nullable()
      table.string('ip', 64).nullable()
      table.text('changes').nullable()
      table.index(['created_at'])
      table.index(['actor_id', 'created_at'])
      table.index(['permission', 'created_at'])
      table.index(['target_type', 'target_id'])
    })
  }

  async down() {
    this.schema.dropTable('audit_logs')
  }
}
