/*
| Benchmark data set, written through the database drivers directly (fast, no app boot):
| - "bench.admin": 20 roles over a 500-node menu tree (20 directories x (1 page + 23 buttons)),
|   every node granted through exactly one role;
| - "bench.small": 1 role with 10 menus (1 directory, 1 page, 8 buttons).
| Both get the password digest of the seeded administrator, so they log in with its password.
| The seeded administrator's forced first password change is marked done (the benchmark measures
| what an administrator does after it).
*/
import { openDb, type DbConfig } from './db.js'

export async function createDataset(config: DbConfig, adminAccount: string) {
  const db = openDb(config)
  const onPg = config.db === 'pg'
  const now = new Date().toISOString()
  const stamp = onPg ? now : now.replace('T', ' ').slice(0, 19)
  try {
    const [admin] = await db.query('SELECT password FROM users WHERE account = ?', [adminAccount])
    await db.query('UPDATE users SET password_change_required = ? WHERE account = ?', [
      onPg ? false : 0,
      adminAccount,
    ])
    const insertUser = async (account: string) => {
      await db.query('DELETE FROM users WHERE account = ?', [account])
      const [row] = await db.query(
        `INSERT INTO users (account, nickname, password, status, token_version, created_at, updated_at)
         VALUES (?, ?, ?, 'enabled', 0, ?, ?) RETURNING id`,
        [account, account, admin.password, stamp, stamp]
      )
      return row.id as number
    }
    const insertMenu = async (
      parentId: number | null,
      type: 'directory' | 'menu' | 'button',
      name: string,
      permission: string | null,
      sort: number
    ) => {
      const [row] = await db.query(
        `INSERT INTO menus (parent_id, type, name, path, component, permission, sort, visible, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'enabled', ?, ?) RETURNING id`,
        [
          parentId,
          type,
          name,
          type === 'button' ? null : `/${name.replace(/\W+/g, '-')}`,
          type === 'menu' ? 'bench/page' : null,
          permission,
          sort,
          onPg ? true : 1,
          stamp,
          stamp,
        ]
      )
      return row.id as number
    }
    await db.query(`DELETE FROM roles WHERE code LIKE 'bench_%'`)
    await db.query(`DELETE FROM menus WHERE permission LIKE 'bench:%'`)
    await db.query(`DELETE FROM menus WHERE type = 'menu' AND name LIKE 'Bench page %'`)
    await db.query(`DELETE FROM menus WHERE type = 'directory' AND name LIKE 'Bench dir %'`)

    const big = await insertUser('bench.admin')
    const small = await insertUser('bench.small')
    for (let r = 0; r < 20; r++) {
      const [role] = await db.query(
        `INSERT INTO roles (code, name, status, is_system, sort, created_at, updated_at)
         VALUES (?, ?, 'enabled', ?, ?, ?, ?) RETURNING id`,
        [`bench_${r}`, `Bench role ${r}`, onPg ? false : 0, r, stamp, stamp]
      )
      const dir = await insertMenu(null, 'directory', `Bench dir ${r}`, null, 100 + r)
      const page = await insertMenu(dir, 'menu', `Bench page ${r}`, null, 1)
      const menuIds = [dir, page]
      for (let b = 0; b < 23; b++) {
        menuIds.push(
          await insertMenu(page, 'button', `Bench button ${r}.${b}`, `bench:r${r}:b${b}`, b)
        )
      }
      for (const menuId of menuIds) {
        await db.query('INSERT INTO role_menus (role_id, menu_id) VALUES (?, ?)', [role.id, menuId])
      }
      await db.query('INSERT INTO user_roles (user_id, role_id) VALUES (?, ?)', [big, role.id])
      if (r === 0) {
        // The small account: its own role with 10 of these menus.
        const [one] = await db.query(
          `INSERT INTO roles (code, name, status, is_system, sort, created_at, updated_at)
           VALUES ('bench_small', 'Bench small', 'enabled', ?, 99, ?, ?) RETURNING id`,
          [onPg ? false : 0, stamp, stamp]
        )
        for (const menuId of menuIds.slice(0, 10)) {
          await db.query('INSERT INTO role_menus (role_id, menu_id) VALUES (?, ?)', [
            one.id,
            menuId,
          ])
        }
        await db.query('INSERT INTO user_roles (user_id, role_id) VALUES (?, ?)', [small, one.id])
      }
    }
  } finally {
    await db.end()
  }
}
