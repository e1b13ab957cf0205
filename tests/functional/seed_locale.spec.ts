import { test } from '@japa/runner'
import { rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import { DatabaseSync } from 'node:sqlite'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { BASE_MENU_TREE, type MenuSeed } from '#auth/permissions'
import { runAce } from '#tests/helpers/app_process'

/*
| SEED_LOCALE=zh-CN: `node ace db:seed` names departments, roles, menus, dictionaries and
| parameters in Chinese, codes unchanged. A fresh SQLite database seeded by the real commands in
| a child process, compared with the test database, which bin/prepare.js seeded in English.
*/

type Row = Record<string, unknown>
const CJK = /[\u4e00-\u9fff]/

/** What a seed wrote: codes and names. */
const QUERIES = {
  roles: 'SELECT code, name, remark, data_scope FROM roles',
  depts: 'SELECT name, parent_id, sort FROM depts',
  menus: `SELECT m.type, m.path, m.component, m.icon, m.permission, m.sort, m.name,
                 p.path AS parent_path, p.type AS parent_type
            FROM menus m LEFT JOIN menus p ON p.id = m.parent_id`,
  dictTypes: 'SELECT code, name FROM dict_types',
  dictItems: 'SELECT type_code, value, label, sort FROM dict_items',
  params: 'SELECT key, value, remark, type FROM params',
  admins: 'SELECT account, nickname FROM users',
} as const
const NAMES: Record<keyof typeof QUERIES, string[]> = {
  roles: ['name', 'remark'],
  depts: ['name'],
  menus: ['name'],
  dictTypes: ['name'],
  dictItems: ['label'],
  params: ['value', 'remark'],
  admins: ['nickname'],
}

/** A seed's rows, split into the codes (same in every language) and the names. */
function split(rows: Record<keyof typeof QUERIES, Row[]>) {
  const codes: Record<string, Row[]> = {}
  const names: Record<string, Row[]> = {}
  for (const [table, list] of Object.entries(rows) as [keyof typeof QUERIES, Row[]][]) {
    const codesOf = (row: Row) =>
      Object.fromEntries(Object.entries(row).filter(([key]) => !NAMES[table].includes(key)))
    // Ordered here by the codes: the databases order NULLs and text differently.
    const sorted = list
      .map((row) => ({ row, key: JSON.stringify(codesOf(row)) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ row }) => row)
    codes[table] = sorted.map(codesOf)
    names[table] = sorted.map((row) =>
      Object.fromEntries(NAMES[table].map((key) => [key, row[key]]))
    )
  }
  return { codes, names }
}

function readSqlite(file: string) {
  const sqlite = new DatabaseSync(file, { readOnly: true })
  try {
    return Object.fromEntries(
      Object.entries(QUERIES).map(([table, sql]) => [table, sqlite.prepare(sql).all() as Row[]])
    ) as Record<keyof typeof QUERIES, Row[]>
  } finally {
    sqlite.close()
  }
}

async function readTestDatabase() {
  const rows: Partial<Record<keyof typeof QUERIES, Row[]>> = {}
  for (const [table, sql] of Object.entries(QUERIES) as [keyof typeof QUERIES, string][]) {
    const result = await db.rawQuery(sql)
    // pg: { rows }; SQLite: the rows. Integers as numbers on both.
    rows[table] = ((result.rows ?? result) as Row[]).map((row) => ({ ...row }))
  }
  return rows as Record<keyof typeof QUERIES, Row[]>
}

const walk = (nodes: MenuSeed[]): MenuSeed[] =>
  nodes.flatMap((node) => [node, ...walk(node.children ?? [])])

test.group('db:seed with SEED_LOCALE', (group) => {
  const file = app.makePath(`tmp/seed-locale-${randomBytes(4).toString('hex')}.sqlite3`)
  const env = {
    DB_CONNECTION: 'sqlite',
    SQLITE_FILE: file,
    ADMIN_ACCOUNT: 'admin',
    ADMIN_PASSWORD: 'Seed-Locale-Passw0rd!',
  }
  let seeded: ReturnType<typeof runAce>
  // Seeded once for the group (two ace processes, migrations and a password hash: seconds).
  group.setup(() => {
    seeded = runAce(['migration:fresh', '--seed'], { ...env, SEED_LOCALE: 'zh-CN' })
  })
  group.teardown(() => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  })

  test('zh-CN: Chinese names, the same codes as the English seed', async ({ assert }) => {
    assert.equal(seeded.status, 0, seeded.output)
    const chinese = split(readSqlite(file))
    const english = split(await readTestDatabase())

    // Same codes, paths, values and keys, tree and order: only names differ.
    assert.deepEqual(chinese.codes, english.codes)
    assert.isAbove(chinese.codes.menus.length, 20)
    assert.deepEqual(chinese.names.roles, [
      { name: '超级管理员', remark: '拥有全部权限；受保护。' },
    ])
    // The root department, created in English by its migration, renamed by the seed.
    assert.deepEqual(chinese.names.depts, [{ name: '总部' }])
    assert.deepEqual(english.names.depts, [{ name: 'Head office' }])
    assert.deepEqual(chinese.names.admins, [{ nickname: '管理员' }])
    assert.deepEqual(
      chinese.names.dictTypes.map((row) => row.name),
      ['文章状态', '通知级别', '账号状态']
    )
    assert.deepEqual(chinese.names.params, [
      { value: 'Adonis RBAC 管理系统', remark: '客户端显示的站点名称' },
    ])
    for (const [table, rows] of Object.entries(chinese.names)) {
      for (const row of rows) {
        for (const text of Object.values(row)) assert.match(String(text), CJK, `${table}: ${text}`)
      }
    }
    // Every menu name is the one of the tree's data, and the console's Chinese for its English
    // name (console/src/i18n/zh.ts translates the English seed's names): one wording.
    const { zh } = await import(pathToFileURL(app.makePath('console/src/i18n/zh.ts')).href)
    const nodes = walk(BASE_MENU_TREE)
    const names = new Map(nodes.map((node) => [node.name.en, node.name['zh-CN']]))
    for (const [en, chineseName] of names) assert.equal(zh[en], chineseName, en)
    assert.sameMembers(
      [...new Set(chinese.names.menus.map((row) => row.name))],
      [...new Set(names.values())]
    )
    for (const [i, row] of english.names.dictItems.entries()) {
      assert.equal(zh[row.label as string], chinese.names.dictItems[i].label)
    }
  }).timeout(20_000)

  test('db:seed again in English (an upgrade adding nodes) renames and adds nothing', async ({
    assert,
  }) => {
    assert.equal(seeded.status, 0, seeded.output)
    const before = split(readSqlite(file))
    assert.equal(before.names.depts[0].name, '总部')
    const again = runAce(['db:seed'], env)
    assert.equal(again.status, 0, again.output)
    assert.deepEqual(split(readSqlite(file)), before)
  }).timeout(20_000)

  test('another SEED_LOCALE is refused at boot, nothing seeded', async ({ assert }) => {
    const before = split(readSqlite(file))
    const refused = runAce(['db:seed'], { ...env, SEED_LOCALE: 'fr' })
    assert.notEqual(refused.status, 0)
    assert.include(refused.output, 'SEED_LOCALE')
    assert.deepEqual(split(readSqlite(file)), before)
  }).timeout(20_000)
})
