import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Menu from '#models/menu'
import Article from '#models/article'
import { BASE_MENU_TREE, type MenuSeed } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { updateMenuValidator } from '#validators/admin/menu'
import { seededAdmin } from '#tests/helpers/rbac'

/**
 * Display fields: menu path/component/icon/name (every administrator's sidebar) and the article
 * cover (the public site) refuse script URLs, traversal and markup with a 422 naming the field,
 * and nothing is written.
 */

type MenuField = 'path' | 'component' | 'icon' | 'name'
type Error = { code: string; field: string; rule: string; message: string }

const byName = (name: string) => Menu.findByOrFail('name', name)
const countOf = async (table: string) => Number((await db.from(table).count('* as n').first()).n)
const rowOf = (table: string, id: number) => db.from(table).where('id', id).first()

/** Refused by every URL-ish field (path, component, icon, coverUrl). */
const HOSTILE = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '../../etc',
  '/a/../b',
  '//evil.example',
  'http://x',
  '"><img src=x onerror=alert(1)>',
  '<script>',
  'users\nadmin',
]

/** Markup and control characters: refused by every field, the name included. */
const MARKUP = [
  '"><img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  'Line\nbreak',
  'Carriage\rreturn',
  'Tab\there',
  'Escape\u001b[31mred', // NUL itself is refused earlier for every body (rule noNullBytes)
  'back`tick',
  'Line\u2028separator',
  'bidi \u202Eevil',
]

const REFUSED: Record<MenuField, string[]> = {
  path: [
    ...HOSTILE,
    'vbscript:msgbox(1)',
    'javascript:void',
    'https:evil.example',
    'https:/evil.example',
    'https:///evil.example',
    'https://trusted.example@evil.example/',
    'https://evil.example/"onmouseover=alert(1)',
    'https://evil.example/a b',
    'ftp://x/y',
    '/a//b',
    '/a/./b',
    '/users/',
    '/users/:id?',
    '\\\\evil.example\\x',
    "/it's",
  ],
  component: [
    ...HOSTILE,
    '/system/user/index',
    'system/../../secrets',
    'system//user',
    'system\\user\\index',
    'https://evil.example/view.js',
    '.hidden',
  ],
  icon: [...HOSTILE, '1icon', '-icon', 'mdi account', 'a'.repeat(65), 'icon.svg', 'icon/x'],
  name: MARKUP,
}

const ACCEPTED: Record<MenuField, string[]> = {
  path: [
    '/system/users',
    'system/users',
    '/users/:id',
    '/users/:userId/roles',
    'users',
    '/',
    '/v1.2/report_list',
    'https://docs.example.com/guide?tab=1#top',
  ],
  component: [
    'system/user/index',
    'Layout',
    'reports/sales-2024/index.vue',
    'content/article_edit/index',
  ],
  icon: ['user', 'mdi:account', 'lucide-settings', 'tree-table', 'i_con9', 'a'.repeat(64)],
  name: ['Users & Roles', 'Café 报表 📊', "Admin's tools", 'Reports (beta) / 50%: sales', 'a+b=c'],
}

const rows = (table: Record<MenuField, string[]>) =>
  (Object.keys(table) as MenuField[]).flatMap((field) =>
    table[field].map((value) => ({ field, value, label: `${field} ${JSON.stringify(value)}` }))
  )

/** A valid page under System, with `field` overridden. */
async function pageBody(field: MenuField, value: string) {
  return {
    type: 'menu',
    name: 'Sales',
    parentId: (await byName('System')).id,
    path: 'sales',
    component: 'reports/sales/index',
    icon: 'chart',
    [field]: value,
  }
}

function assertOneError(assert: any, response: any, field: string, rule: string) {
  assert.equal(response.status(), 422, JSON.stringify(response.body()))
  const errors: Error[] = response.body().errors
  assert.lengthOf(errors, 1)
  assert.containSubset(errors[0], { code: 'E_VALIDATION_ERROR', field, rule })
  assert.include(errors[0].message, field)
}

/** A control character is refused first, by every text field (app/validators/text.ts). */
const ruleFor = (value: string, rule: string) =>
  /\p{Cc}/u.test(value) ? 'controlCharacters' : rule

const RULE_OF: Record<MenuField, string> = {
  path: 'menuPath',
  component: 'component',
  icon: 'icon',
  name: 'plainText',
}

test.group('Admin display fields: menus', (group) => {
  isolate(group)

  test('every node of the seeded tree passes the menu rules', async ({ assert }) => {
    const walk = (nodes: MenuSeed[]): MenuSeed[] =>
      nodes.flatMap((node) => [node, ...walk(node.children ?? [])])
    const nodes = walk(BASE_MENU_TREE)
    assert.isAbove(nodes.length, 20)
    for (const node of nodes) {
      const { name, path, component, icon } = node
      // In every seed language (SEED_LOCALE).
      for (const text of Object.values(name)) {
        await updateMenuValidator.validate({ name: text, path, component, icon })
      }
    }
  })

  test('refused on create and on update (422, nothing written): {label}')
    .with(rows(REFUSED))
    .run(async ({ client, assert }, row) => {
      const admin = await seededAdmin()
      const before = await countOf('menus')
      const created = await client
        .post('/api/admin/menus')
        .json(await pageBody(row.field, row.value))
        .loginAs(admin)
      assertOneError(assert, created, row.field, ruleFor(row.value, RULE_OF[row.field]))
      assert.equal(await countOf('menus'), before)

      const users = await byName('Users')
      const stored = await rowOf('menus', users.id)
      const updated = await client
        .put(`/api/admin/menus/${users.id}`)
        .json({ [row.field]: row.value })
        .loginAs(admin)
      assertOneError(assert, updated, row.field, ruleFor(row.value, RULE_OF[row.field]))
      assert.deepEqual(await rowOf('menus', users.id), stored)
    })

  test('accepted on create (201) and on update (200): {label}')
    .with(rows(ACCEPTED))
    .run(async ({ client, assert }, row) => {
      const admin = await seededAdmin()
      const created = await client
        .post('/api/admin/menus')
        .json(await pageBody(row.field, row.value))
        .loginAs(admin)
      created.assertStatus(201)
      assert.equal(created.body().data[row.field], row.value)
      assert.equal((await Menu.findOrFail(created.body().data.id))[row.field], row.value)

      const users = await byName('Users')
      const updated = await client
        .put(`/api/admin/menus/${users.id}`)
        .json({ [row.field]: row.value })
        .loginAs(admin)
      updated.assertStatus(200)
      assert.equal((await Menu.findOrFail(users.id))[row.field], row.value)
    })

  test('values are trimmed first, and "" or null still clear the optional fields', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const users = await byName('Users')
    const response = await client
      .put(`/api/admin/menus/${users.id}`)
      .json({ name: '  Accounts\n', path: ' /accounts ', icon: '' })
      .loginAs(admin)
    response.assertStatus(200)
    assert.containSubset(response.body().data, { name: 'Accounts', path: '/accounts', icon: null })
    const cleared = await client
      .put(`/api/admin/menus/${users.id}`)
      .json({ icon: null })
      .loginAs(admin)
    cleared.assertStatus(200)
    assert.isNull((await Menu.findOrFail(users.id)).icon)
  })

  test('several bad fields are all named at once', async ({ client, assert }) => {
    const before = await countOf('menus')
    const response = await client
      .post('/api/admin/menus')
      .json({
        type: 'directory',
        name: '<b>x</b>',
        path: 'javascript:alert(1)',
        component: '../x',
        icon: '"><svg>',
      })
      .loginAs(await seededAdmin())
    response.assertStatus(422)
    assert.sameMembers(
      response.body().errors.map((error: Error) => error.field),
      ['name', 'path', 'component', 'icon']
    )
    assert.equal(await countOf('menus'), before)
  })
})

const COVER_REFUSED = [
  ...HOSTILE,
  'vbscript:msgbox(1)',
  'cover.png',
  'https:evil.example/x.png',
  'https:/evil.example/x.png',
  'https://trusted.example@evil.example/x.png',
  'https://cdn.example.com/a"onerror="alert(1).png',
  "https://cdn.example.com/it's.png",
  'https://cdn.example.com/a b.png',
  'ftp://cdn.example.com/x.png',
  '/%2e%2e/secret.png',
  '/uploads/.%2E/x.png',
  '/uploads/./x.png',
  '/\\evil.example/x.png',
  '/uploads/<x>.png',
]

const COVER_ACCEPTED = [
  'https://cdn.example.com/cover.png',
  'https://cdn.example.com:8443/a/b/cover.webp?w=640&h=360#x',
  '/uploads/2024/cover.png',
  '/uploads/cover.png?v=2',
  '/static/%E5%9B%BE.png',
]

async function draftArticle() {
  return Article.create({
    slug: `cover-${Math.random().toString(36).slice(2, 10)}`,
    title: 'An article',
    summary: 'Summary',
    content: 'Content',
    category: 'news',
    status: 'draft',
    coverUrl: '/uploads/original.png',
  })
}

test.group('Admin display fields: article cover', (group) => {
  isolate(group)

  test('coverUrl refused on create and on update (422, nothing written): {$self}')
    .with(COVER_REFUSED)
    .run(async ({ client, assert }, value) => {
      const admin = await seededAdmin()
      const row = await draftArticle()
      const before = await countOf('articles')
      const created = await client
        .post('/api/admin/articles')
        .json({ title: 'Cover', content: 'c', category: 'news', coverUrl: value })
        .loginAs(admin)
      assertOneError(assert, created, 'coverUrl', ruleFor(value, 'coverUrl'))
      assert.equal(await countOf('articles'), before)

      const stored = await rowOf('articles', row.id)
      const updated = await client
        .put(`/api/admin/articles/${row.id}`)
        .json({ coverUrl: value })
        .loginAs(admin)
      assertOneError(assert, updated, 'coverUrl', ruleFor(value, 'coverUrl'))
      assert.deepEqual(await rowOf('articles', row.id), stored)
    })

  test('coverUrl accepted on create (201) and on update (200): {$self}')
    .with(COVER_ACCEPTED)
    .run(async ({ client, assert }, value) => {
      const admin = await seededAdmin()
      const created = await client
        .post('/api/admin/articles')
        .json({ title: 'Cover', content: 'c', category: 'news', coverUrl: value })
        .loginAs(admin)
      created.assertStatus(201)
      assert.equal(created.body().data.coverUrl, value)

      const row = await draftArticle()
      const updated = await client
        .put(`/api/admin/articles/${row.id}`)
        .json({ coverUrl: value })
        .loginAs(admin)
      updated.assertStatus(200)
      assert.equal((await Article.findOrFail(row.id)).coverUrl, value)
    })

  test('coverUrl "" and null clear the cover', async ({ client, assert }) => {
    const admin = await seededAdmin()
    for (const empty of ['', '  ', null]) {
      const row = await draftArticle()
      const response = await client
        .put(`/api/admin/articles/${row.id}`)
        .json({ coverUrl: empty })
        .loginAs(admin)
      response.assertStatus(200)
      assert.isNull((await Article.findOrFail(row.id)).coverUrl, JSON.stringify(empty))
    }
  })
})
