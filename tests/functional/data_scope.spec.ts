import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import Role, { type DataScopeKind } from '#models/role'
import Dept from '#models/dept'
import Article from '#models/article'
import { PERMISSIONS } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { ADMIN_PREFIX } from '#start/routes/admin'
import { RoleFactory, roleWithPermissions } from '#database/factories/role_factory'
import { UserFactory } from '#database/factories/user_factory'
import { subtreeOf } from '#policies/grant_rule'
import { seededAdmin } from '#tests/helpers/rbac'
import { assertForbidden } from '#tests/helpers/assertions'
import { countQueries } from '#tests/helpers/auth'

/**
 * Departments and data scope (docs/architecture.md, "Departments and data scope"): what each
 * scope shows on a tree of four levels, that a tree change applies on the next request, that
 * every admin route on users and articles treats an out-of-scope record as absent (a router
 * walk), that the grant rule refuses every way of widening a scope, and a property test against
 * a brute-force filter.
 */
const { user: U, article: A, role: R, dept: D } = PERMISSIONS
const ALL_CODES = [
  ...Object.values(U),
  ...Object.values(A),
  ...Object.values(R),
  ...Object.values(D),
]

let serial = 0
const unique = () => `${Date.now().toString(36)}${serial++}`

/** Root -> hq -> a -> a1 -> a1x, hq -> b; one member and one article per department. */
async function tree() {
  const root = await Dept.root()
  const dept = (name: string, parentId: number) =>
    Dept.create({ name, parentId, sort: 0, status: 'enabled' })
  const a = await dept('A', root.id)
  const a1 = await dept('A1', a.id)
  const a1x = await dept('A1x', a1.id)
  const b = await dept('B', root.id)
  const depts = { root, a, a1, a1x, b }
  const members: Record<string, User> = {}
  const articles: Record<string, Article> = {}
  for (const [key, d] of Object.entries(depts)) {
    members[key] = await UserFactory.merge({
      account: `m_${key}_${unique()}`,
      deptId: d.id,
    }).create()
    articles[key] = await articleBy(members[key])
  }
  return { depts, members, articles }
}

function articleBy(author: User) {
  return Article.create({
    slug: `s-${unique()}`,
    title: `By ${author.account}`,
    summary: '',
    content: 'Body',
    category: 'news',
    status: 'draft',
    authorId: author.id,
  })
}

/** An account in `deptId` whose one role holds `codes` with the given data scope. */
async function caller(
  deptId: number | null,
  dataScope: DataScopeKind,
  deptIds: number[] = [],
  codes: readonly string[] = ALL_CODES
) {
  const role = await roleWithPermissions(codes, { dataScope })
  if (deptIds.length) await role.related('depts').attach(deptIds)
  const account = await UserFactory.merge({ account: `c_${unique()}`, deptId }).create()
  await account.related('roles').attach([role.id])
  return { account, role }
}

async function listed(client: ApiClient, who: User, path: string, field: string) {
  const response = await client.get(`${ADMIN_PREFIX}/${path}`).qs({ pageSize: 100 }).loginAs(who)
  response.assertStatus(200)
  return response
    .body()
    .data.map((row: Record<string, unknown>) => row[field])
    .sort()
}

async function countOf(table: string) {
  const [row] = await db.from(table).count('* as n')
  return Number(row.n)
}

const ids = (records: { id: number }[]) => records.map((record) => record.id).sort()

test.group('Data scope: what each kind shows', (group) => {
  isolate(group)

  test('all, dept_and_children, dept, self and custom on a four-level tree', async ({
    client,
    assert,
  }) => {
    const { depts, members, articles } = await tree()
    const { a, a1, b } = depts
    const m = members
    const cases: [DataScopeKind, number[], string[]][] = [
      ['dept_and_children', [], ['a', 'a1', 'a1x']],
      ['dept', [], ['a']],
      ['self', [], []],
      ['custom', [a1.id, b.id], ['a1', 'b']],
    ]
    const callersInA: number[] = []
    for (const [kind, custom, keys] of cases) {
      const { account } = await caller(a.id, kind, custom)
      callersInA.push(account.id)
      // The callers are in A: seen by `dept` and `dept_and_children`; `self` sees itself only.
      const own = kind === 'custom' ? [] : kind === 'self' ? [account.id] : callersInA
      assert.deepEqual(
        await listed(client, account, 'users', 'id'),
        [...ids(keys.map((key) => m[key])), ...own].sort(),
        kind
      )
      assert.deepEqual(
        await listed(client, account, 'articles', 'id'),
        ids(keys.map((key) => articles[key])),
        kind
      )
    }
    // `self` shows the caller's own articles, and `all` everything.
    const { account: writer } = await caller(a.id, 'self')
    const own = await articleBy(writer)
    assert.deepEqual(await listed(client, writer, 'articles', 'id'), [own.id])
    const { account: everything } = await caller(b.id, 'all')
    const everyUser = await User.query().select('id')
    assert.deepEqual(await listed(client, everything, 'users', 'id'), ids(everyUser))
  })

  test('the union over enabled roles; a disabled role shows nothing; super admin sees all', async ({
    client,
    assert,
  }) => {
    const { depts, members } = await tree()
    const { account, role } = await caller(depts.a1.id, 'dept')
    const extra = await RoleFactory.merge({ dataScope: 'custom' }).create()
    await extra.related('depts').attach([depts.b.id])
    await account.related('roles').attach([extra.id])
    const expected = [members.a1.id, members.b.id, account.id].sort()
    assert.deepEqual(await listed(client, account, 'users', 'id'), expected)
    extra.status = 'disabled'
    await extra.save()
    assert.deepEqual(
      await listed(client, account, 'users', 'id'),
      [members.a1.id, account.id].sort()
    )
    await role.merge({ dataScope: 'all' }).save()
    assert.lengthOf(await listed(client, account, 'users', 'id'), await countOf('users'))
    const admin = await seededAdmin()
    assert.lengthOf(await listed(client, admin, 'users', 'id'), await countOf('users'))
  })
})

test.group('Data scope: changes apply on the next request', (group) => {
  isolate(group)

  test('moving a department changes what dept_and_children sees (API and raw SQL)', async ({
    client,
    assert,
  }) => {
    const { depts, members } = await tree()
    const { account } = await caller(depts.a.id, 'dept_and_children')
    const before = await listed(client, account, 'users', 'id')
    assert.notInclude(before, members.b.id)

    const admin = await seededAdmin()
    const moved = await client
      .put(`${ADMIN_PREFIX}/depts/${depts.b.id}`)
      .json({ parentId: depts.a1x.id })
      .loginAs(admin)
    moved.assertStatus(200)
    assert.include(await listed(client, account, 'users', 'id'), members.b.id)

    // An operator's raw SQL moves the access version too (the triggers).
    await db.from('depts').where('id', depts.a1.id).update({ parent_id: depts.root.id })
    const after = await listed(client, account, 'users', 'id')
    assert.notInclude(after, members.a1.id)
    assert.notInclude(after, members.b.id) // B went with A1's subtree
    assert.include(after, members.a.id)
  })

  test("moving the caller's own account, and a custom department list, apply at once", async ({
    client,
    assert,
  }) => {
    const { depts, members } = await tree()
    const { account, role } = await caller(depts.a.id, 'dept')
    assert.include(await listed(client, account, 'users', 'id'), members.a.id)
    // users carry no trigger: the guard's row has the department, which keys the snapshot.
    await db.from('users').where('id', account.id).update({ dept_id: depts.b.id })
    const moved = await listed(client, account, 'users', 'id')
    assert.include(moved, members.b.id)
    assert.notInclude(moved, members.a.id)

    await role.merge({ dataScope: 'custom' }).save()
    await db.table('role_depts').insert({ role_id: role.id, dept_id: depts.a1x.id })
    assert.deepEqual(await listed(client, account, 'users', 'id'), [members.a1x.id])
  })

  test('an unchanged state is still one SQL round trip per protected request', async ({
    client,
    assert,
  }) => {
    const { depts } = await tree()
    const { account } = await caller(depts.a.id, 'dept_and_children')
    const me = () => client.get('/api/auth/me').loginAs(account)
    ;(await me()).assertStatus(200)
    // loginAs writes a session row first; count the request alone.
    const request = me()
    const { queries } = await countQueries(async () => (await request).assertStatus(200))
    assert.isAtMost(
      queries.filter((sql) => !/admin_sessions/.test(sql) || /access_version/.test(sql)).length,
      1,
      queries.join('\n')
    )
  })
})

/**
 * A request on an admin route whose target is out of the caller's scope. Every route under
 * /api/admin/users and /api/admin/articles must be listed here (the walk fails otherwise), so a
 * new route cannot skip the scope unnoticed.
 */
const BODIES: Record<string, (target: { role: Role }) => Record<string, unknown> | undefined> = {
  'GET /users/:id': () => undefined,
  'PUT /users/:id': () => ({ nickname: 'Taken over', status: 'disabled' }),
  'DELETE /users/:id': () => undefined,
  'PUT /users/:id/roles': ({ role }) => ({ roleIds: [role.id] }),
  'POST /users/:id/password-reset': () => ({ password: 'Brand-new-passphrase-2' }),
  'POST /users/:id/unlock': () => undefined,
  'DELETE /users/:id/2fa': () => undefined,
  'GET /articles/:id': () => undefined,
  'PUT /articles/:id': () => ({ title: 'Defaced' }),
  'DELETE /articles/:id': () => undefined,
  'POST /articles/:id/publish': () => undefined,
  'POST /articles/:id/unpublish': () => undefined,
}

async function scopedState() {
  return {
    users: await db.from('users').select('*').orderBy('id'),
    userRoles: await db.from('user_roles').select('*').orderBy(['user_id', 'role_id']),
    articles: await db.from('articles').select('*').orderBy('id'),
    sessions: await db.from('admin_sessions').whereNotNull('ended_at').count('* as n'),
  }
}

test.group('Data scope: every users and articles route (router walk)', (group) => {
  isolate(group)

  test('an out-of-scope target is absent from lists and 404 everywhere else; nothing changes', async ({
    client,
    assert,
  }) => {
    const { depts, members, articles } = await tree()
    const { account, role } = await caller(depts.a.id, 'dept_and_children')
    const outside = { user: members.b, article: articles.b }
    const inside = { user: members.a1, article: articles.a1 }
    const routes = Object.values(router.toJSON())
      .flat()
      .filter((route) => /^\/api\/admin\/(users|articles)(\/|$)/.test(route.pattern))
      .flatMap((route) =>
        route.methods
          .filter((method) => method !== 'HEAD')
          .map((method) => ({ method, pattern: route.pattern }))
      )
    assert.isAbove(routes.length, 10)

    for (const { method, pattern } of routes) {
      const path = pattern.slice(ADMIN_PREFIX.length)
      const isUser = path.startsWith('/users')
      const target = isUser ? outside.user : outside.article
      if (!path.includes(':id')) {
        if (method !== 'GET') continue // creation: no target (placement is the grant rule's test)
        if (path.endsWith('/template')) continue // the import template: a fixed file, no records
        const query = path.endsWith('/export') ? { format: 'csv' } : { pageSize: 100 }
        const response = await client.get(pattern).qs(query).loginAs(account)
        response.assertStatus(200)
        const text = response.text()
        const marker = isUser ? outside.user.account : outside.article.slug
        assert.notInclude(text, marker, `${method} ${path} lists an out-of-scope record`)
        assert.include(
          text,
          isUser ? inside.user.account : inside.article.slug,
          `${method} ${path} should list in-scope records`
        )
        continue
      }
      const key = `${method} ${path}`
      const body = BODIES[key]
      assert.isDefined(body, `${key}: a new route on a scoped resource; add it to BODIES`)
      const before = await scopedState()
      const request = client.request(pattern.replace(':id', String(target.id)), method as any)
      const payload = body!({ role })
      const response = await (payload ? request.json(payload) : request).loginAs(account)
      assert.equal(response.status(), 404, `${key} answered ${response.status()}`)
      assert.deepEqual(await scopedState(), before, `${key} changed something`)
      // The same request on an in-scope record passes the scope (whatever the rest decides);
      // a fresh one each time, as the request may delete it.
      const fresh = await UserFactory.merge({
        account: `f_${unique()}`,
        deptId: depts.a1.id,
      }).create()
      const inScope = isUser ? fresh : await articleBy(fresh)
      const control = client.request(pattern.replace(':id', String(inScope.id)), method as any)
      const seen = await (payload ? control.json(payload) : control).loginAs(account)
      assert.notEqual(seen.status(), 404, `${key} refused an in-scope record`)
    }
  })
})

test.group('Data scope: the grant rule refuses every widening', (group) => {
  isolate(group)

  test('roles: no scope beyond the caller’s, on create and on edit', async ({ client, assert }) => {
    const { depts } = await tree()
    const { account } = await caller(depts.a.id, 'dept_and_children')
    const post = (body: object) =>
      client
        .post(`${ADMIN_PREFIX}/roles`)
        .json({ code: `r_${unique()}`, name: 'R', ...body })
        .loginAs(account)
    const before = await countOf('roles')
    assertForbidden(assert, await post({ dataScope: 'all' }), 'data scope')
    assertForbidden(
      assert,
      await post({ dataScope: 'custom', deptIds: [depts.b.id] }),
      'dept id(s)'
    )
    assert.deepEqual(await countOf('roles'), before)
    const made = await post({ dataScope: 'custom', deptIds: [depts.a1.id] })
    made.assertStatus(201)
    assert.equal(made.body().data.dataScope, 'custom')
    assert.deepEqual(made.body().data.deptIds, [depts.a1.id])
    // Left out: `self`, least privilege.
    const plain = await post({})
    plain.assertStatus(201)
    assert.equal(plain.body().data.dataScope, 'self')

    // A role held in A1 by someone: widening it to all, or to a department not seen, is refused.
    const held = await Role.findOrFail(plain.body().data.id)
    await holderIn(depts.a1.id, held)
    const put = (body: object) =>
      client.put(`${ADMIN_PREFIX}/roles/${held.id}`).json(body).loginAs(account)
    assertForbidden(assert, await put({ dataScope: 'all' }))
    assertForbidden(assert, await put({ dataScope: 'custom', deptIds: [depts.root.id] }))
    await held.refresh()
    assert.equal(held.dataScope, 'self')
    assert.lengthOf(await db.from('role_depts').where('role_id', held.id), 0)
    ;(await put({ dataScope: 'dept_and_children' })).assertStatus(200)
    // Seen by a caller with `dept` only in A1: its holder in A1 would see A1x.
    await holderIn(depts.a1.id, await Role.findOrFail(made.body().data.id))
    const { account: narrow } = await caller(depts.a1.id, 'dept')
    const widen = await client
      .put(`${ADMIN_PREFIX}/roles/${(await Role.findOrFail(made.body().data.id)).id}`)
      .json({ dataScope: 'dept_and_children' })
      .loginAs(narrow)
    assertForbidden(assert, widen)
  })

  test('users: placed only in seen departments; roles given only within the scope', async ({
    client,
    assert,
  }) => {
    const { depts, members: m } = await tree()
    const { account } = await caller(depts.a1.id, 'dept')
    const users = await countOf('users')
    const create = (body: object) =>
      client
        .post(`${ADMIN_PREFIX}/users`)
        .json({ account: `n_${unique()}`, password: 'A-long-enough-passphrase-1', ...body })
        .loginAs(account)
    assertForbidden(assert, await create({ deptId: depts.b.id }), 'departments you see')
    assertForbidden(assert, await create({}), 'departments you see')
    assertForbidden(assert, await create({ deptId: depts.a.id }))
    assert.deepEqual(await countOf('users'), users)
    const made = await create({ deptId: depts.a1.id })
    made.assertStatus(201)
    assert.equal(made.body().data.deptId, depts.a1.id)

    // Moving a seen account out of sight, or out of any department, is refused.
    for (const deptId of [depts.b.id, null]) {
      assertForbidden(
        assert,
        await client.put(`${ADMIN_PREFIX}/users/${m.a1.id}`).json({ deptId }).loginAs(account)
      )
    }
    await m.a1.refresh()
    assert.equal(m.a1.deptId, depts.a1.id)

    // A role showing more than the caller sees, given to an account it sees.
    const wide = await RoleFactory.merge({ dataScope: 'dept_and_children' }).create()
    const all = await RoleFactory.merge({ dataScope: 'all' }).create()
    for (const role of [wide, all]) {
      assertForbidden(
        assert,
        await client
          .put(`${ADMIN_PREFIX}/users/${m.a1.id}/roles`)
          .json({ roleIds: [role.id] })
          .loginAs(account)
      )
    }
    assert.lengthOf(await db.from('user_roles').where('user_id', m.a1.id), 0)
    // An account that sees more than the caller (an `all` role) is not the caller's to edit.
    await m.a1.related('roles').attach([all.id])
    assertForbidden(
      assert,
      await client.put(`${ADMIN_PREFIX}/users/${m.a1.id}`).json({ nickname: 'x' }).loginAs(account)
    )
  })

  test('departments: only seen ones, never under an unseen one, never a cycle', async ({
    client,
    assert,
  }) => {
    const { depts } = await tree()
    const { account } = await caller(depts.a.id, 'dept_and_children')
    const tree0 = await db.from('depts').select('id', 'parent_id', 'name').orderBy('id')
    const put = (id: number, body: object) =>
      client.put(`${ADMIN_PREFIX}/depts/${id}`).json(body).loginAs(account)
    // Pulling an unseen department into the own subtree: it cannot even be named.
    ;(await put(depts.b.id, { parentId: depts.a1.id })).assertStatus(404)
    // Handing the own subtree to an unseen parent.
    assertForbidden(assert, await put(depts.a1.id, { parentId: depts.root.id }))
    assertForbidden(assert, await put(depts.a.id, { parentId: depts.b.id }))
    assertForbidden(
      assert,
      await client
        .post(`${ADMIN_PREFIX}/depts`)
        .json({ name: 'X', parentId: depts.b.id })
        .loginAs(account)
    )
    assertForbidden(
      assert,
      await client.post(`${ADMIN_PREFIX}/depts`).json({ name: 'X' }).loginAs(account)
    )
    ;(await client.delete(`${ADMIN_PREFIX}/depts/${depts.b.id}`).loginAs(account)).assertStatus(404)
    // A cycle, even within what is seen.
    const cycle = await put(depts.a.id, { parentId: depts.a1x.id })
    cycle.assertStatus(422)
    assert.equal(cycle.body().errors[0].field, 'parentId')
    assert.deepEqual(await db.from('depts').select('id', 'parent_id', 'name').orderBy('id'), tree0)
    // Within what is seen, it works.
    ;(await put(depts.a1x.id, { parentId: depts.a.id, name: 'A2' })).assertStatus(200)
  })
})

async function holderIn(deptId: number, role: Role) {
  const holder = await UserFactory.merge({ account: `h_${unique()}`, deptId }).create()
  await holder.related('roles').attach([role.id])
  return holder
}

test.group('Departments: the admin API', (group) => {
  isolate(group)

  test('tree, create, update, delete (refused with children or members: 409)', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const root = await Dept.root()
    const post = (body: object) => client.post(`${ADMIN_PREFIX}/depts`).json(body).loginAs(admin)
    const sales = await post({ name: 'Sales', parentId: root.id, sort: 2 })
    sales.assertStatus(201)
    const east = await post({ name: 'East', parentId: sales.body().data.id })
    east.assertStatus(201)
    const unknownParent = await post({ name: 'Lost', parentId: 999999 })
    unknownParent.assertStatus(422)

    const treeAnswer = await client.get(`${ADMIN_PREFIX}/depts/tree`).loginAs(admin)
    treeAnswer.assertStatus(200)
    const [top] = treeAnswer.body().data
    assert.equal(top.id, root.id)
    const salesNode = top.children.find((node: any) => node.id === sales.body().data.id)
    assert.deepEqual(
      salesNode.children.map((node: any) => node.name),
      ['East']
    )

    const del = (id: number) => client.delete(`${ADMIN_PREFIX}/depts/${id}`).loginAs(admin)
    const withChildren = await del(sales.body().data.id)
    withChildren.assertStatus(409)
    await UserFactory.merge({ deptId: east.body().data.id }).create()
    ;(await del(east.body().data.id)).assertStatus(409)
    await db.from('users').where('dept_id', east.body().data.id).update({ dept_id: root.id })
    ;(await del(east.body().data.id)).assertStatus(204)
    ;(await del(sales.body().data.id)).assertStatus(204)
    assert.isNull(await Dept.find(sales.body().data.id))
    const audit = await db.from('audit_logs').where('target_type', 'dept').count('* as n')
    assert.equal(Number(audit[0].n), 4)
  })

  test('users carry deptId; roles carry dataScope and deptIds', async ({ client, assert }) => {
    const admin = await seededAdmin()
    const root = await Dept.root()
    const made = await client
      .post(`${ADMIN_PREFIX}/users`)
      .json({ account: `d_${unique()}`, password: 'A-long-enough-passphrase-1', deptId: root.id })
      .loginAs(admin)
    made.assertStatus(201)
    assert.equal(made.body().data.deptId, root.id)
    const unknown = await client
      .put(`${ADMIN_PREFIX}/users/${made.body().data.id}`)
      .json({ deptId: 999999 })
      .loginAs(admin)
    unknown.assertStatus(422)
    const role = await client
      .post(`${ADMIN_PREFIX}/roles`)
      .json({ code: `r_${unique()}`, name: 'Branch', dataScope: 'custom', deptIds: [root.id] })
      .loginAs(admin)
    role.assertStatus(201)
    assert.deepEqual(role.body().data.deptIds, [root.id])
    const mixed = await client
      .put(`${ADMIN_PREFIX}/roles/${role.body().data.id}`)
      .json({ dataScope: 'dept', deptIds: [root.id] })
      .loginAs(admin)
    mixed.assertStatus(422)
    const narrowed = await client
      .put(`${ADMIN_PREFIX}/roles/${role.body().data.id}`)
      .json({ dataScope: 'dept' })
      .loginAs(admin)
    narrowed.assertStatus(200)
    assert.equal(narrowed.body().data.dataScope, 'dept')
    assert.deepEqual(narrowed.body().data.deptIds, [])
    const superRole = await Role.findByOrFail('code', 'super_admin')
    assert.equal(superRole.dataScope, 'all')
    // A form sending the scope back unchanged is no change of scope.
    const renamed = await client
      .put(`${ADMIN_PREFIX}/roles/${superRole.id}`)
      .json({ name: 'Super administrator', dataScope: 'all', deptIds: [] })
      .loginAs(admin)
    renamed.assertStatus(200)
    assertForbidden(
      assert,
      await client
        .put(`${ADMIN_PREFIX}/roles/${superRole.id}`)
        .json({ dataScope: 'self' })
        .loginAs(admin)
    )
  })
})

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

test.group('Data scope: property test against a brute-force filter', (group) => {
  isolate(group)

  test('after random tree edits, each scoped list equals the filter computed by hand', async ({
    client,
    assert,
  }) => {
    const rand = random(2911)
    const pick = <T>(items: T[]) => items[Math.floor(rand() * items.length)]
    const admin = await seededAdmin()
    const root = await Dept.root()
    const deptIds = [root.id]
    for (let i = 0; i < 12; i++) {
      const d = await Dept.create({
        name: `P${i}`,
        parentId: pick(deptIds),
        sort: 0,
        status: 'enabled',
      })
      deptIds.push(d.id)
    }
    const people: User[] = []
    for (let i = 0; i < 16; i++) {
      const person = await UserFactory.merge({
        account: `p_${unique()}`,
        deptId: rand() < 0.1 ? null : pick(deptIds),
      }).create()
      people.push(person)
      if (rand() < 0.6) await articleBy(person)
    }
    const kinds: DataScopeKind[] = ['all', 'dept_and_children', 'dept', 'self', 'custom']

    for (let round = 0; round < 12; round++) {
      // A random move through the API (a cycle is refused and changes nothing).
      const moving = pick(deptIds.slice(1))
      const target = pick(deptIds)
      await client.put(`${ADMIN_PREFIX}/depts/${moving}`).json({ parentId: target }).loginAs(admin)

      const kind = pick(kinds)
      const custom = kinds.indexOf(kind) === 4 ? deptIds.filter(() => rand() < 0.3) : []
      const { account } = await caller(rand() < 0.1 ? null : pick(deptIds), kind, custom)

      // Brute force, from the stored tree.
      const parents = new Map<number, number | null>(
        (await db.from('depts').select('id', 'parent_id')).map((row) => [
          Number(row.id),
          row.parent_id === null ? null : Number(row.parent_id),
        ])
      )
      const own = account.deptId
      const seen = new Set<number>(
        kind === 'dept' && own !== null
          ? [own]
          : kind === 'dept_and_children' && own !== null
            ? subtreeOf(own, parents)
            : custom
      )
      const everyone = await db.from('users').select('id', 'dept_id')
      const visible = (row: { id: number; dept_id: number | null }) =>
        kind === 'all' ||
        (row.dept_id !== null && seen.has(Number(row.dept_id))) ||
        (kind === 'self' && Number(row.id) === account.id)
      const expectedUsers = everyone
        .filter(visible)
        .map((row) => Number(row.id))
        .sort()
      const deptOf = new Map(everyone.map((row) => [Number(row.id), row]))
      const expectedArticles = (await db.from('articles').select('id', 'author_id'))
        .filter((row) => row.author_id !== null && visible(deptOf.get(Number(row.author_id))!))
        .map((row) => Number(row.id))
        .sort()

      assert.deepEqual(
        await listed(client, account, 'users', 'id'),
        expectedUsers,
        `round ${round}: ${kind}`
      )
      assert.deepEqual(
        await listed(client, account, 'articles', 'id'),
        expectedArticles,
        `round ${round}: ${kind}`
      )
    }
  })
})
