import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'roles'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id').notNullable()
      table.string('code', 64).notNullable().unique()
      table.string('name', 64).notNullable()
      table.string('status', 16).notNullable().defaultTo('enabled')
      // System roles (super_admin) cannot be deleted, disabled, re-coded or have their menus changed.
      table.boolean('is_system').notNullable().defaultTo(false)
      table.integer('sort').notNullable().defaultTo(0)
      table.string('remark', 500).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
