import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Refused attempts are aggregated (app/auth/login_log.ts, app/services/audit_log.ts): one row per
 * key per minute, `count` saying how many attempts it stands for. Every existing row stands for
 * one attempt, and successful logins and audited writes always keep count 1.
 */
const TABLES = ['login_logs', 'audit_logs']

export default class extends BaseSchema {
  async up() {
    for (const name of TABLES) {
      this.schema.alterTable(name, (table) => {
        table.integer('count').notNullable().defaultTo(1)
      })
    }
  }

  async down() {
    for (const name of TABLES) {
      this.schema.alterTable(name, (table) => {
        table.dropColumn('count')
      })
    }
  }
}
