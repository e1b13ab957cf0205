import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'users'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id').notNullable()
      table.string('account', 64).notNullable().unique()
      table.string('nickname', 64).notNullable().defaultTo('')
      table.string('email', 254).nullable()
      table.string('password', 255).notNullable()
      table.string('status', 16).notNullable().defaultTo('enabled')
      // Session version: bumped by password change/reset, disable and delete; a JWT carrying an
      // older value is rejected on its next request.
      table.integer('token_version').notNullable().defaultTo(0)
      table.timestamp('last_login_at', { useTz: true }).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
