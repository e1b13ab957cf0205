import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The session codes take the names DESIGN.md gives them (`monitor:session:{list,delete}`). A
 * database seeded before keeps its button rows, grants and ids: only the code changes. The
 * access-version triggers see the update, so every cached snapshot is rebuilt.
 */
const RENAMES: [string, string][] = [
  ['monitor:online:list', 'monitor:session:list'],
  ['monitor:online:force-logout', 'monitor:session:delete'],
]

export default class extends BaseSchema {
  async up() {
    for (const [from, to] of RENAMES) {
      this.defer(async (db) => {
        await db.from('menus').where('permission', from).update({ permission: to })
      })
    }
  }

  async down() {
    for (const [from, to] of RENAMES) {
      this.defer(async (db) => {
        await db.from('menus').where('permission', to).update({ permission: from })
      })
    }
  }
}
