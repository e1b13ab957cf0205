import { BaseSchema } from '@adonisjs/lucid/schema'

export default class extends BaseSchema {
  protected tableName = 'articles'

  async up() {
    this.schema.createTable(this.tableName, (table) => {
      table.increments('id').notNullable()
      table.string('slug', 160).notNullable().unique()
      table.string('title', 200).notNullable()
      table.string('summary', 500).notNullable().defaultTo('')
      table.text('content').notNullable()
      table.string('category', 32).notNullable()
      table.string('cover_url', 500).nullable()
      table.string('status', 16).notNullable().defaultTo('draft')
      table.timestamp('published_at', { useTz: true }).nullable()
      // An author may be deleted; the article stays (author shown as unknown).
      table
        .integer('author_id')
        .unsigned()
        .nullable()
        .references('id')
        .inTable('users')
        .onDelete('SET NULL')
      table.text('internal_note').nullable()
      table.timestamp('created_at', { useTz: true }).notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable()
    })
    // The public list: WHERE status = 'published' AND published_at <= now ORDER BY published_at DESC, id DESC.
    this.schema.raw(
      'CREATE INDEX articles_public_list_index ON articles (status, published_at DESC, id DESC)'
    )
  }

  async down() {
    this.schema.dropTable(this.tableName)
  }
}
