import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Menu from '#models/menu'
import { ALL_PERMISSION_CODES, PERMISSIONS } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { MenuFactory } from '#database/factories/menu_factory'
import { RoleFactory } from '#database/factories/role_factory'
import { userWithPermissions } from '#database/factories/user_factory'
import { seededAdmin } from '#tests/helpers/rbac'

type TreeNode = {
  id: number
  name: string
  type: string
  permission: string | null
  children: TreeNode[]
}

type Ids = { directory: number; page: number }

const byName = (name: string) => Menu.findByOrFail('name', name)
const flatten = (nodes: TreeNode[]): TreeNode[] =>
  nodes.flatMap((node) => [node, ...flatten(node.children)])

test.group('Admin menus: tree, list, show', (group) => {
  isolate(group)

  test('GET menus/tree returns the whole tree, buttons and disabled nodes included', async ({
    client,
    assert,
  }) => {
    const users = await byName('Users')
    await Menu.query().where('id', users.id).update({ status: 'disabled' })
    const response = await client.get('/api/admin/menus/tree').loginAs(await seededAdmin())
    response.assertStatus(200)
    const roots: TreeNode[] = response.body().data
    assert.deepEqual(
      roots.map((node) => node.name),
      ['System', 'Content', 'Monitor']
    )
    assert.deepEqual(
      roots[0].children.map((node) => node.name),
      ['Users', 'Roles', 'Menus', 'Departments', 'Dictionaries', 'Parameters', 'Notices']
    )
    const usersNode = roots[0].children[0]
    assert.containSubset(usersNode, { status: 'disabled', type: 'menu', path: 'users' })
    assert.deepEqual(
      usersNode.children.map((node) => node.permission),
      Object.values(PERMISSIONS.user)
    )
    const all = flatten(roots)
    assert.lengthOf(
      all,
      await Menu.query()
        .count('* as n')
        .then((rows) => Number(rows[0].$extras.n))
    )
    assert.sameMembers(
      all.filter((node) => node.type === 'button').map((node) => node.permission),
      [...ALL_PERMISSION_CODES]
    )
    assert.notProperty(all[0], 'menu')
  })

  test('the list is paged and filtered by keyword, type, status and parent', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const names = async (qs: Record<string, unknown>) => {
      const response = await client.get('/api/admin/menus').qs(qs).loginAs(admin)
      response.assertStatus(200)
      return response.body()
    }
    const buttons = await names({ type: 'button', pageSize: 100 })
    assert.equal(buttons.meta.total, ALL_PERMISSION_CODES.length)
    const system = await byName('System')
    const pages = await names({ parentId: system.id })
    assert.deepEqual(
      pages.data.map((node: Menu) => node.name),
      ['Users', 'Roles', 'Menus', 'Departments', 'Dictionaries', 'Parameters', 'Notices']
    )
    const found = await names({ keyword: 'reset-password' })
    assert.deepEqual(
      found.data.map((node: Menu) => node.permission),
      [PERMISSIONS.user.resetPassword]
    )
    ;(await client.get('/api/admin/menus').qs({ type: 'link' }).loginAs(admin)).assertStatus(422)
  })

  test('show returns one node; unknown ids are 404', async ({ client, assert }) => {
    const admin = await seededAdmin()
    const users = await byName('Users')
    const response = await client.get(`/api/admin/menus/${users.id}`).loginAs(admin)
    response.assertStatus(200)
    assert.containSubset(response.body().data, {
      id: users.id,
      name: 'Users',
      type: 'menu',
      component: 'system/user/index',
      visible: true,
    })
    for (const [method, url] of [
      ['GET', '/api/admin/menus/424242'],
      ['PUT', '/api/admin/menus/424242'],
      ['DELETE', '/api/admin/menus/424242'],
      ['GET', '/api/admin/menus/99999999999'],
    ]) {
      const missing = await client.request(url, method).json({}).loginAs(admin)
      assert.equal(missing.status(), 404, `${method} ${url}`)
    }
  })
})

test.group('Admin menus: create and the type rules', (group) => {
  isolate(group)

  test('creates a directory, a page under it and a button under the page', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const directory = await client
      .post('/api/admin/menus')
      .json({ type: 'directory', name: 'Reports', path: '/reports', icon: 'chart', sort: 3 })
      .loginAs(admin)
    directory.assertStatus(201)
    assert.containSubset(directory.body().data, {
      type: 'directory',
      parentId: null,
      visible: true,
      status: 'enabled',
      permission: null,
    })
    const page = await client
      .post('/api/admin/menus')
      .json({
        type: 'menu',
        name: 'Sales',
        parentId: directory.body().data.id,
        path: 'sales',
        component: 'reports/sales/index',
        visible: false,
      })
      .loginAs(admin)
    page.assertStatus(201)
    assert.isFalse(page.body().data.visible)
    const buttonResponse = await client
      .post('/api/admin/menus')
      .json({
        type: 'button',
        name: 'Export',
        parentId: page.body().data.id,
        permission: 'report:sales:export',
      })
      .loginAs(admin)
    buttonResponse.assertStatus(201)
    assert.equal(buttonResponse.body().data.permission, 'report:sales:export')
  })

  // Bodies by type: a button under the Users page, a page under the System directory.
  const buttonBody = (parentId: number | null, extra = {}) => ({
    type: 'button',
    name: 'x',
    parentId,
    ...extra,
  })
  const pageBody = (parentId: number, extra = {}) => ({
    type: 'menu',
    name: 'x',
    path: 'x',
    parentId,
    ...extra,
  })
  const directoryBody = (extra = {}) => ({ type: 'directory', name: 'x', path: '/x', ...extra })
  const code = { permission: 'a:b:c' }

  test('type-specific fields are validated (422): {name}')
    .with([
      { name: 'missing type and name', body: () => ({}), fields: ['type', 'name'] },
      { name: 'unknown type', body: () => ({ type: 'link', name: 'x' }), fields: ['type'] },
      {
        name: 'button without a permission code',
        body: (ids: Ids) => buttonBody(ids.page),
        fields: ['permission'],
      },
      {
        name: 'malformed permission code',
        body: (ids: Ids) => buttonBody(ids.page, { permission: 'Drop Table' }),
        fields: ['permission'],
      },
      { name: 'button at the root', body: () => buttonBody(null, code), fields: ['parentId'] },
      {
        name: 'button under a directory',
        body: (ids: Ids) => buttonBody(ids.directory, code),
        fields: ['parentId'],
      },
      {
        name: 'button with a route path',
        body: (ids: Ids) => buttonBody(ids.page, { ...code, path: 'x' }),
        fields: ['path'],
      },
      {
        name: 'directory with a permission code',
        body: () => directoryBody(code),
        fields: ['permission'],
      },
      {
        name: 'directory without a path',
        body: () => directoryBody({ path: undefined }),
        fields: ['path'],
      },
      {
        name: 'page without a component',
        body: (ids: Ids) => pageBody(ids.directory),
        fields: ['component'],
      },
      {
        name: 'page under a page',
        body: (ids: Ids) => pageBody(ids.page, { component: 'c' }),
        fields: ['parentId'],
      },
      {
        name: 'unknown parent',
        body: () => directoryBody({ parentId: 424242 }),
        fields: ['parentId'],
      },
      {
        name: 'visible not a boolean',
        body: () => directoryBody({ visible: 'maybe' }),
        fields: ['visible'],
      },
    ])
    .run(async ({ client, assert }, row) => {
      const ids = { directory: (await byName('System')).id, page: (await byName('Users')).id }
      const before = await db.from('menus').count('* as n')
      const response = await client
        .post('/api/admin/menus')
        .json(row.body(ids))
        .loginAs(await seededAdmin())
      response.assertStatus(422)
      assert.sameMembers(
        response.body().errors.map((error: { field: string }) => error.field),
        row.fields
      )
      assert.deepEqual(await db.from('menus').count('* as n'), before)
    })

  test('a permission code already used by a button is 409', async ({ client, assert }) => {
    const page = await byName('Users')
    const response = await client
      .post('/api/admin/menus')
      .json({
        type: 'button',
        name: 'Again',
        parentId: page.id,
        permission: PERMISSIONS.user.list,
      })
      .loginAs(await seededAdmin())
    response.assertStatus(409)
    assert.equal(response.body().errors[0].code, 'E_CONFLICT')
  })
})

test.group('Admin menus: update, move and delete', (group) => {
  isolate(group)

  test('update changes fields; a partial update keeps the others', async ({ client, assert }) => {
    const page = await byName('Users')
    const response = await client
      .put(`/api/admin/menus/${page.id}`)
      .json({ name: 'Accounts', sort: 7, icon: null })
      .loginAs(await seededAdmin())
    response.assertStatus(200)
    assert.containSubset(response.body().data, {
      name: 'Accounts',
      sort: 7,
      icon: null,
      path: 'users',
      component: 'system/user/index',
      type: 'menu',
    })
  })

  test('a node cannot become its own parent or move below a descendant (422)', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const system = await byName('System')
    const users = await byName('Users')
    const self = await client
      .put(`/api/admin/menus/${system.id}`)
      .json({ parentId: system.id })
      .loginAs(admin)
    self.assertStatus(422)
    assert.containSubset(self.body().errors[0], { field: 'parentId', rule: 'notSelf' })

    const nested = await MenuFactory.merge({ parentId: system.id }).create()
    const below = await client
      .put(`/api/admin/menus/${system.id}`)
      .json({ parentId: nested.id })
      .loginAs(admin)
    below.assertStatus(422)
    assert.containSubset(below.body().errors[0], { field: 'parentId', rule: 'notDescendant' })
    assert.isNull((await Menu.findOrFail(system.id)).parentId)

    // A page moved to the root is fine.
    const moved = await client
      .put(`/api/admin/menus/${users.id}`)
      .json({ parentId: null })
      .loginAs(admin)
    moved.assertStatus(200)
    assert.isNull(moved.body().data.parentId)
  })

  test('the type cannot change when the children would no longer fit (422)', async ({
    client,
    assert,
  }) => {
    const users = await byName('Users')
    const response = await client
      .put(`/api/admin/menus/${users.id}`)
      .json({ type: 'directory', component: null })
      .loginAs(await seededAdmin())
    response.assertStatus(422)
    assert.containSubset(response.body().errors[0], { field: 'type', rule: 'children' })
    assert.equal((await Menu.findOrFail(users.id)).type, 'menu')
  })

  test('changing a button code to one already used is 409', async ({ client }) => {
    const reset = await Menu.findByOrFail('permission', PERMISSIONS.user.resetPassword)
    const response = await client
      .put(`/api/admin/menus/${reset.id}`)
      .json({ permission: PERMISSIONS.user.list })
      .loginAs(await seededAdmin())
    response.assertStatus(409)
  })

  test('a move never writes role_menus: refused (409) while a holding role lacks the new parent, allowed once granted', async ({
    client,
    assert,
  }) => {
    const { user, role } = await userWithPermissions([PERMISSIONS.user.list])
    const users = await byName('Users')
    const content = await byName('Content')
    const links = async () =>
      (await db.from('role_menus').where('role_id', role.id).orderBy('menu_id')).map((row) =>
        Number(row.menu_id)
      )
    const before = await links()
    const admin = await seededAdmin()
    const move = () =>
      client.put(`/api/admin/menus/${users.id}`).json({ parentId: content.id }).loginAs(admin)
    const refused = await move()
    refused.assertStatus(409)
    assert.include(refused.body().errors[0].message, `Role id(s) ${role.id}`)
    assert.equal((await Menu.findOrFail(users.id)).parentId, (await byName('System')).id)
    assert.deepEqual(await links(), before)
    ;(await client.get('/api/admin/users').loginAs(user)).assertStatus(200)

    await db.table('role_menus').insert({ role_id: role.id, menu_id: content.id })
    const moved = await move()
    moved.assertStatus(200)
    assert.deepEqual(
      await links(),
      [...before, content.id].sort((a, b) => a - b)
    )
    ;(await client.get('/api/admin/users').loginAs(user)).assertStatus(200)
  })

  test('disabling a button: holders of its code get 403 on their very next request', async ({
    client,
  }) => {
    const { user } = await userWithPermissions([PERMISSIONS.user.list])
    ;(await client.get('/api/admin/users').loginAs(user)).assertStatus(200)
    const listButton = await Menu.findByOrFail('permission', PERMISSIONS.user.list)
    ;(
      await client
        .put(`/api/admin/menus/${listButton.id}`)
        .json({ status: 'disabled' })
        .loginAs(await seededAdmin())
    ).assertStatus(200)
    ;(await client.get('/api/admin/users').loginAs(user)).assertStatus(403)
  })

  test('delete is 409 while the node has children, 204 for a leaf (role links cascade)', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const system = await byName('System')
    const refused = await client.delete(`/api/admin/menus/${system.id}`).loginAs(admin)
    refused.assertStatus(409)
    assert.equal(refused.body().errors[0].code, 'E_CONFLICT')
    assert.isNotNull(await Menu.find(system.id))

    const leaf = await Menu.findByOrFail('permission', PERMISSIONS.article.publish)
    const role = await RoleFactory.create()
    await role.related('menus').attach([leaf.id])
    ;(await client.delete(`/api/admin/menus/${leaf.id}`).loginAs(admin)).assertStatus(204)
    assert.isNull(await Menu.find(leaf.id))
    assert.lengthOf(await db.from('role_menus').where('menu_id', leaf.id), 0)
  })
})
