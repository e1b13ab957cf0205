import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'role_menus'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      // Deleting a role or a menu removes only these link rows.
      table
        .integer('role_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('roles')
        .onDelete('CASCADE')
      table
        .integer('menu_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('menus')
        .onDelete('CASCADE')
      // The primary key (role_id, menu_id) is also the "menus of a role" index of the auth re-read.
      table.primary(['role_id', 'menu_id'])
      table.index(['menu_id'], 'role_menus_menu_id_index')
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
