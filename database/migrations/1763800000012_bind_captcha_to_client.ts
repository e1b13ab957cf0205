import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The client address that fetched a captcha challenge, carried to the credential it earns: a
 * credential presented by another address is refused (and spent).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('captcha_challenges', (table) => {
      table.string('client_ip', 64).nullable()
    })
    this.schema.alterTable('captcha_tokens', (table) => {
      table.string('client_ip', 64).nullable()
    })
  }

  async down() {
    this.schema.alterTable('captcha_tokens', (table) => {
      table.dropColumn('client_ip')
    })
    this.schema.alterTable('captcha_challenges', (table) => {
      table.dropColumn('client_ip')
    })
  }
}
