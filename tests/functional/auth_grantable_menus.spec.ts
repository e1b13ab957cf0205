import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Menu from '#models/menu'
import { PERMISSIONS } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { menuIdsOf, seededAdmin } from '#tests/helpers/rbac'
import { userWithPermissions } from '#database/factories/user_factory'

type Node = { id: number; type: string; permission: string | null; children: Node[] }
const flatten = (nodes: Node[]): Node[] =>
  nodes.flatMap((node) => [node, ...flatten(node.children)])
const idsOf = (nodes: Node[]) =>
  flatten(nodes)
    .map((node) => node.id)
    .sort((a, b) => a - b)

test.group('GET /api/auth/me/grantable-menus', (group) => {
  isolate(group)

  test('a role editor gets exactly what it holds, buttons included, and can grant all of it but nothing else', async ({
    client,
    assert,
  }) => {
    const { user, role } = await userWithPermissions([
      PERMISSIONS.role.list,
      PERMISSIONS.role.create,
      PERMISSIONS.article.list,
    ])
    const response = await client.get('/api/auth/me/grantable-menus').loginAs(user)
    response.assertStatus(200)
    const tree: Node[] = response.body().data

    // Exactly the nodes the role grants (the codes' buttons with their ancestors), as a tree.
    assert.deepEqual(idsOf(tree), await menuIdsOf(role.id))
    assert.sameMembers(
      flatten(tree)
        .filter((node) => node.type === 'button')
        .map((node) => node.permission),
      [PERMISSIONS.role.list, PERMISSIONS.role.create, PERMISSIONS.article.list]
    )
    for (const root of tree) assert.isNull((root as unknown as { parentId: null }).parentId)

    // The whole tree is grantable: a role holding all of it is created...
    const created = await client
      .post('/api/admin/roles')
      .json({ code: 'copy_of_mine', name: 'Copy of mine', menuIds: idsOf(tree) })
      .loginAs(user)
    created.assertStatus(201)
    // ...and a node outside it is refused.
    const outside = await Menu.query().whereNotIn('id', idsOf(tree)).firstOrFail()
    const refused = await client
      .post('/api/admin/roles')
      .json({ code: 'more_than_mine', name: 'More than mine', menuIds: [outside.id] })
      .loginAs(user)
    refused.assertStatus(403)
  })

  test('the super admin gets the whole tree; an anonymous caller gets 401', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const response = await client.get('/api/auth/me/grantable-menus').loginAs(admin)
    response.assertStatus(200)
    const all = (await Menu.query().orderBy('id')).map((menu) => menu.id)
    assert.deepEqual(idsOf(response.body().data), all)

    const anonymous = await client.get('/api/auth/me/grantable-menus')
    anonymous.assertStatus(401)
  })

  test('a change to the caller role applies on the very next request', async ({
    client,
    assert,
  }) => {
    const { user, role } = await userWithPermissions([PERMISSIONS.role.list])
    const before = idsOf(
      (await client.get('/api/auth/me/grantable-menus').loginAs(user)).body().data
    )
    await db.from('role_menus').where('role_id', role.id).delete()
    const after = await client.get('/api/auth/me/grantable-menus').loginAs(user)
    after.assertStatus(200)
    assert.isAbove(before.length, 0)
    assert.deepEqual(after.body().data, [])
  })
})
