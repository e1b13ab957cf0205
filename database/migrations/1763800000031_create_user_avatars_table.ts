import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Own avatars (docs/architecture.md, "Password lifecycle and own profile"): the re-encoded 256 px
 * WebP bytes live in the database, so every instance serves them and backups include them.
 * `users.avatar_etag` repeats the current ETag, so /me and the user list build `avatarUrl`
 * without reading this table (the guard's one query already reads the users row).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('user_avatars', (table) => {
      table.integer('user_id').unsigned().primary().references('users.id').onDelete('CASCADE')
      table.binary('data').notNullable()
      table.string('etag', 64).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })
    this.schema.alterTable('users', (table) => {
      table.string('avatar_etag', 64).nullable()
    })
  }

  async down() {
    this.schema.alterTable('users', (table) => {
      table.dropColumn('avatar_etag')
    })
    this.schema.dropTable('user_avatars')
  }
}
