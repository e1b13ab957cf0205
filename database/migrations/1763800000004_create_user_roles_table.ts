import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'user_roles'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      // Deleting a user or a role removes only these link rows.
      table
        .integer('user_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('users')
        .onDelete('CASCADE')
      table
        .integer('role_id')
        .unsigned()
        .notNullable()
        .references('id')
        .inTable('roles')
        .onDelete('CASCADE')
      // The primary key (user_id, role_id) is also the "roles of a user" index of the auth re-read.
      table.primary(['user_id', 'role_id'])
      table.index(['role_id'], 'user_roles_role_id_index')
    })
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
