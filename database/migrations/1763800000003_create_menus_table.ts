import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'menus'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id').notNullable()
      // No cascade: a node with children cannot be deleted (409), so the tree never loses branches silently.
      table.integer('parent_id').unsigned().nullable().references('id').inTable('menus')
      table.string('type', 16).notNullable()
      table.string('name', 64).notNullable()
      table.string('path', 200).nullable()
      table.string('component', 200).nullable()
      table.string('icon', 100).nullable()
      table.string('permission', 100).nullable()
      table.integer('sort').notNullable().defaultTo(0)
      table.boolean('visible').notNullable().defaultTo(true)
      table.string('status', 16).notNullable().defaultTo('enabled')
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()

      table.index(['parent_id'], 'menus_parent_id_index')
      table.index(['permission'], 'menus_permission_index')
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
