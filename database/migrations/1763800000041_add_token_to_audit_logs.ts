import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * An admin write made with an API token names the token (app/services/audit_log.ts). No foreign
 * key: the row keeps naming the token after it is revoked or its owner deleted.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('audit_logs', (table) => {
      table.integer('token_id').nullable()
    })
  }

  async down() {
    this.schema.alterTable('audit_logs', (table) => {
      table.dropColumn('token_id')
    })
  }
}
