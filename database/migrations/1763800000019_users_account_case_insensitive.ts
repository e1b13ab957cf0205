import { BaseSchema } from '@adonisjs/lucid/schema'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

export const ACCOUNT_LOWER_INDEX = 'users_account_lower_unique'

/**
 * Accounts that differ only by letter case, one group per name, oldest first
 * ([['admin', 'ADMIN'], ...]): what the unique index on lower(account) cannot be created over.
 */
export async function accountCaseClashes(client: QueryClientContract) {
  const rows: { account: string }[] = await client
    .from('users')
    .select('account')
    .whereRaw(
      'lower(account) IN (SELECT lower(account) FROM users GROUP BY lower(account) HAVING COUNT(*) > 1)'
    )
    .orderByRaw('lower(account), id')
  const groups = new Map<string, string[]>()
  for (const { account } of rows) {
    const key = account.toLowerCase()
    groups.set(key, [...(groups.get(key) ?? []), account])
  }
  return [...groups.values()]
}

export function accountCaseClashMessage(clashes: string[][]) {
  return `accounts differing only by case: ${clashes.map((group) => group.join(' / ')).join(', ')} — rename one, then run the migration again`
}

/**
 * Accounts are unique case-insensitively ("admin" and "ADMIN" would be one person at the login
 * prompt): a unique expression index on lower(account), on PostgreSQL and SQLite alike, so raw SQL
 * is refused too. Existing clashes are listed before anything changes, instead of the index
 * creation failing on the first one.
 */
export default class extends BaseSchema {
  async up() {
    this.defer(async (db) => {
      const clashes = await accountCaseClashes(db)
      if (clashes.length) throw new Error(accountCaseClashMessage(clashes))
      await db.rawQuery(`CREATE UNIQUE INDEX ${ACCOUNT_LOWER_INDEX} ON users (lower(account))`)
    })
  }

  async down() {
    this.defer(async (db) => {
      await db.rawQuery(`DROP INDEX IF EXISTS ${ACCOUNT_LOWER_INDEX}`)
    })
  }
}
