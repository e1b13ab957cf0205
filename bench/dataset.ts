/*
| Benchmark data set, written through the database drivers directly (fast, no app boot):
| - "bench.admin": 20 roles over a 500-node menu tree (20 directories x (1 page + 23 buttons)),
|   every node granted through exactly one role;
| - "bench.small": 1 role with 10 menus (1 directory, 1 page, 8 buttons).
| - 20 published notices with Markdown bodies (lists, a table, links), 5 read by bench.small:
|   what the notices bell (GET /api/auth/notices) shows.
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
    await db.query(`DELETE FROM notices WHERE title LIKE 'Bench notice %'`)
    const body = (n: number) =>
      `## Maintenance ${n}\n\nThe **console** is down on _Sunday_ from 02:00 to 04:00 UTC. See the ` +
      `[runbook](https://example.com/runbook/${n}) and the list:\n\n- step one\n- step two\n` +
      `- step three with \`code\`\n\n| service | window |\n| --- | --- |\n| api | 02:00 |\n` +
      `| console | 03:00 |\n\n> Questions: ask the operators.\n`
    for (let n = 0; n < 20; n++) {
      const [row] = await db.query(
        `INSERT INTO notices (title, body, level, status, published_at, created_at, updated_at)
         VALUES (?, ?, 'info', 'published', ?, ?, ?) RETURNING id`,
        [`Bench notice ${n}`, body(n), stamp, stamp, stamp]
      )
      if (n < 5) {
        await db.query('INSERT INTO notice_reads (notice_id, user_id, read_at) VALUES (?, ?, ?)', [
          row.id,
          small,
          stamp,
        ])
      }
    }
  } finally {
    await db.end()
  }
}

/**
 * Data scope (issue "Departments and data scope"): a 500-node department tree under the seeded
 * root (20 branches x 4 sections x 5 teams, plus the 20 branch and 80 section nodes), 300 accounts
 * spread over it, and "bench.scoped": 20 roles with bench.admin's menus but scoped (10
 * `dept_and_children`, 10 `custom` over 10 departments each), placed in branch 0. Role 0 of both
 * accounts also holds system:user:list, so "/me" and the users list compare scoped with `all`
 * (bench.admin's roles keep the column default, `all`) on the same roles and menus.
 */
/** Accounts spread over the department tree (BENCH_SCOPE_USERS; 100,000 for issue 45's figure). */
const SCOPE_USERS = Number(process.env.BENCH_SCOPE_USERS ?? 300)

export async function createScopeDataset(config: DbConfig) {
  const db = openDb(config)
  const onPg = config.db === 'pg'
  const now = new Date().toISOString()
  const stamp = onPg ? now : now.replace('T', ' ').slice(0, 19)
  const id = async (sql: string, params: unknown[]) => (await db.query(sql, params))[0].id as number
  try {
    const [root] = await db.query(
      'SELECT id FROM depts WHERE parent_id IS NULL ORDER BY id LIMIT 1'
    )
    const insertDept = (parentId: number, name: string, sort: number) =>
      id(
        `INSERT INTO depts (parent_id, name, sort, status, created_at, updated_at)
         VALUES (?, ?, ?, 'enabled', ?, ?) RETURNING id`,
        [parentId, name, sort, stamp, stamp]
      )
    const depts: number[] = []
    const branches: number[] = []
    for (let b = 0; b < 20; b++) {
      const branch = await insertDept(root.id, `Bench branch ${b}`, b)
      branches.push(branch)
      depts.push(branch)
      for (let s = 0; s < 4; s++) {
        const section = await insertDept(branch, `Bench section ${b}.${s}`, s)
        depts.push(section)
        for (let t = 0; t < 5; t++)
          depts.push(await insertDept(section, `Bench team ${b}.${s}.${t}`, t))
      }
    }
    const [admin] = await db.query("SELECT password FROM users WHERE account = 'bench.admin'")
    const insertUser = (account: string, deptId: number) =>
      id(
        `INSERT INTO users (account, nickname, password, status, token_version, dept_id, created_at, updated_at)
         VALUES (?, ?, ?, 'enabled', 0, ?, ?, ?) RETURNING id`,
        [account, account, admin.password, deptId, stamp, stamp]
      )
    if (onPg && SCOPE_USERS > 1000) {
      // One statement for a large population (BENCH_SCOPE_USERS), spread over the tree alike.
      await db.query(
        `INSERT INTO users (account, nickname, password, status, token_version, dept_id, created_at, updated_at)
         SELECT 'bench.person.' || g, 'bench.person.' || g, ?, 'enabled', 0,
                (?::int[])[((g * 7) % ?) + 1], ?, ?
           FROM generate_series(0, ? - 1) AS g`,
        [admin.password, `{${depts.join(',')}}`, depts.length, stamp, stamp, SCOPE_USERS]
      )
    } else {
      for (let p = 0; p < SCOPE_USERS; p++)
        await insertUser(`bench.person.${p}`, depts[(p * 7) % depts.length])
    }
    const scoped = await insertUser('bench.scoped', branches[0])
    // As autovacuum does within a minute of a bulk insert: the visibility map set, so the
    // list's count reads the dept_id index alone (measured: 5.7 ms heap scan vs 0.45 ms).
    if (onPg) await db.query('VACUUM ANALYZE users')

    const [userList] = await db.query("SELECT id FROM menus WHERE permission = 'system:user:list'")
    // A code counts with its menu's ancestors held too (the snapshot's closure): the button, its
    // page and its directory.
    const userListPath: number[] = []
    for (let at: number | null = userList.id; at !== null;) {
      userListPath.push(at)
      const [menu] = await db.query('SELECT parent_id FROM menus WHERE id = ?', [at])
      at = menu.parent_id
    }
    const roles = await db.query(
      "SELECT id, code FROM roles WHERE code LIKE 'bench\\_%' ESCAPE '\\' AND code <> 'bench_small' ORDER BY sort"
    )
    for (const [r, role] of roles.entries()) {
      const scope = r % 2 ? 'custom' : 'dept_and_children'
      const copy = await id(
        `INSERT INTO roles (code, name, status, is_system, sort, data_scope, created_at, updated_at)
         VALUES (?, ?, 'enabled', ?, ?, ?, ?, ?) RETURNING id`,
        [
          `scoped_${role.code}`,
          `Scoped ${role.code}`,
          onPg ? false : 0,
          200 + r,
          scope,
          stamp,
          stamp,
        ]
      )
      const menus = await db.query('SELECT menu_id FROM role_menus WHERE role_id = ?', [role.id])
      const menuIds = menus.map((row) => row.menu_id)
      if (r === 0) {
        for (const menuId of userListPath) {
          await db.query('INSERT INTO role_menus (role_id, menu_id) VALUES (?, ?)', [
            role.id,
            menuId,
          ])
        }
        menuIds.push(...userListPath)
      }
      for (const menuId of menuIds) {
        await db.query('INSERT INTO role_menus (role_id, menu_id) VALUES (?, ?)', [copy, menuId])
      }
      if (scope === 'custom') {
        for (let d = 0; d < 10; d++) {
          await db.query('INSERT INTO role_depts (role_id, dept_id) VALUES (?, ?)', [
            copy,
            depts[(r * 37 + d * 11) % depts.length],
          ])
        }
      }
      await db.query('INSERT INTO user_roles (user_id, role_id) VALUES (?, ?)', [scoped, copy])
    }
  } finally {
    await db.end()
  }
}
