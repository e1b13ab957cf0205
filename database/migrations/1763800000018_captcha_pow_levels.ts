import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The proof-of-work level a captcha was paid at, and the account it was asked for (if any),
 * carried from the challenge to the credential: login refuses a credential paid below what the
 * account needs now. A challenge row is kept, marked spent, until it expires, so the solution
 * that created it (its id is the proof of work's nonce) cannot create another.
 */
export default class extends BaseSchema {
  async up() {
    for (const name of ['captcha_challenges', 'captcha_tokens']) {
      this.schema.alterTable(name, (table) => {
        table.integer('level').notNullable().defaultTo(0)
        table.string('account', 64).nullable()
      })
    }
    this.schema.alterTable('captcha_challenges', (table) => {
      table.boolean('spent').notNullable().defaultTo(false)
    })
  }

  async down() {
    this.schema.alterTable('captcha_challenges', (table) => {
      table.dropColumn('spent')
    })
    for (const name of ['captcha_tokens', 'captcha_challenges']) {
      this.schema.alterTable(name, (table) => {
        table.dropColumn('account')
        table.dropColumn('level')
      })
    }
  }
}
