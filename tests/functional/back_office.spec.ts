import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import Dept from '#models/dept'
import Param from '#models/param'
import { PERMISSIONS } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { assertForbidden, assertValidationError } from '#tests/helpers/assertions'
import { roleWithPermissions } from '#database/factories/role_factory'
import { UserFactory, superAdminUser, userWithPermissions } from '#database/factories/user_factory'
import { xlsx } from '#tests/helpers/xlsx'

/**
 * Back-office modules (issue 47; docs/admin-modules.md, "Back-office modules"): dictionaries,
 * parameters, notices and the user import. The permission walk of every route is
 * admin_routes.spec.ts's; the second instance is tests/pg/back_office_instances.spec.ts.
 */
const { dict, param, notice, user } = PERMISSIONS
const unique = () => Math.random().toString(36).slice(2, 10)
const count = async (table: string) => Number((await db.from(table).count('* as n'))[0].n)

test.group('Dictionaries', (group) => {
  isolate(group)

  test('CRUD of types and items; GET /api/dicts/:code shows enabled items in order, at once', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions(Object.values(dict))
    const created = await client
      .post('/api/admin/dicts')
      .json({ code: 'colour', name: 'Colour' })
      .loginAs(admin)
    created.assertStatus(201)
    assert.containsSubset(created.body().data, {
      code: 'colour',
      name: 'Colour',
      status: 'enabled',
    })
    const add = (body: object) =>
      client.post('/api/admin/dicts/colour/items').json(body).loginAs(admin)
    ;(await add({ label: 'Red', value: 'red', sort: 2, cssClass: 'error' })).assertStatus(201)
    const blue = await add({ label: 'Blue', value: 'blue', sort: 1 })
    blue.assertStatus(201)
    ;(await add({ label: 'Grey', value: 'grey', sort: 0, status: 'disabled' })).assertStatus(201)
    // Any signed-in administrator, no code needed.
    const reader = await UserFactory.create()
    const read = async () => (await client.get('/api/dicts/colour').loginAs(reader)).body().data
    assert.deepEqual(await read(), {
      code: 'colour',
      name: 'Colour',
      items: [
        { label: 'Blue', value: 'blue', sort: 1, cssClass: null },
        { label: 'Red', value: 'red', sort: 2, cssClass: 'error' },
      ],
    })
    // A change shows on the next request: through the API, and through raw SQL.
    await client
      .put(`/api/admin/dicts/colour/items/${blue.body().data.id}`)
      .json({ label: 'Navy', sort: 3 })
      .loginAs(admin)
    assert.deepEqual(
      (await read()).items.map((item: { label: string }) => item.label),
      ['Red', 'Navy']
    )
    await db.from('dict_items').where('value', 'grey').update({ status: 'enabled' })
    assert.lengthOf((await read()).items, 3)
    // Disabled or unknown: 404; without a token: 401.
    await client
      .put(`/api/admin/dicts/${created.body().data.id}`)
      .json({ status: 'disabled' })
      .loginAs(admin)
    ;(await client.get('/api/dicts/colour').loginAs(reader)).assertStatus(404)
    ;(await client.get('/api/dicts/nothing_here').loginAs(reader)).assertStatus(404)
    ;(await client.get('/api/dicts/colour')).assertStatus(401)
    // The list pages; the items of an unknown type are 404; an item of another type is 404.
    const list = await client.get('/api/admin/dicts').qs({ keyword: 'colo' }).loginAs(admin)
    assert.equal(list.body().meta.total, 1)
    ;(await client.get('/api/admin/dicts/nothing/items').loginAs(admin)).assertStatus(404)
    ;(
      await client
        .delete(`/api/admin/dicts/sys_user_status/items/${blue.body().data.id}`)
        .loginAs(admin)
    ).assertStatus(404)
    // Deleting the type takes its items.
    ;(
      await client.delete(`/api/admin/dicts/${created.body().data.id}`).loginAs(admin)
    ).assertStatus(204)
    assert.equal(
      Number((await db.from('dict_items').where('type_code', 'colour').count('* as n'))[0].n),
      0
    )
  })

  test('409 on a duplicate code or value; 422 per field', async ({ client, assert }) => {
    const { user: admin } = await userWithPermissions(Object.values(dict))
    const duplicate = await client
      .post('/api/admin/dicts')
      .json({ code: 'sys_user_status', name: 'Again' })
      .loginAs(admin)
    duplicate.assertStatus(409)
    const value = await client
      .post('/api/admin/dicts/sys_user_status/items')
      .json({ label: 'Again', value: 'enabled' })
      .loginAs(admin)
    value.assertStatus(409)
    assertValidationError(
      assert,
      await client
        .post('/api/admin/dicts')
        .json({ code: 'Bad Code', name: '<b>x</b>' })
        .loginAs(admin),
      ['code', 'name']
    )
    assertValidationError(
      assert,
      await client
        .post('/api/admin/dicts/sys_user_status/items')
        .json({ label: '', value: 'x"y', sort: -1, cssClass: 'a b', status: 'maybe' })
        .loginAs(admin),
      ['label', 'value', 'sort', 'cssClass', 'status']
    )
    assertValidationError(
      assert,
      await client.get('/api/admin/dicts').qs({ sort: 'label', pageSize: 1000 }).loginAs(admin),
      ['sort', 'pageSize']
    )
    ;(await client.get('/api/admin/dicts/424242').loginAs(admin)).assertStatus(404)
    ;(await client.get('/api/admin/dicts/99999999999').loginAs(admin)).assertStatus(404)
  })
})

test.group('Parameters', (group) => {
  isolate(group)

  test('values checked by type (422 on value); public ones readable without sign-in, typed', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions(Object.values(param))
    const create = (body: object) => client.post('/api/admin/params').json(body).loginAs(admin)
    for (const [type, value] of [
      ['number', '12abc'],
      ['number', 'Infinity'],
      ['boolean', 'yes'],
      ['json', '{oops'],
    ]) {
      const response = await create({ key: `k.${unique()}`, type, value })
      assertValidationError(assert, response, ['value'])
    }
    assertValidationError(assert, await create({ key: '9 bad', type: 'text', value: 1 }), [
      'key',
      'type',
      'value',
    ])
    const limit = await create({
      key: 'upload.limit',
      type: 'number',
      value: '2.5',
      isPublic: true,
    })
    limit.assertStatus(201)
    ;(
      await create({ key: 'flags', type: 'json', value: '{"a":[1,true]}', isPublic: true })
    ).assertStatus(201)
    ;(await create({ key: 'secret.thing', type: 'string', value: 'hidden' })).assertStatus(201)
    ;(await create({ key: 'upload.limit', type: 'string', value: 'x' })).assertStatus(409)

    assert.deepEqual((await client.get('/api/params/upload.limit')).body().data, {
      key: 'upload.limit',
      type: 'number',
      value: 2.5,
    })
    assert.deepEqual((await client.get('/api/params/flags')).body().data.value, { a: [1, true] })
    assert.deepEqual((await client.get('/api/params/site.title')).body().data.value, 'Adonis RBAC')
    ;(await client.get('/api/params/secret.thing')).assertStatus(404)
    ;(await client.get('/api/params/nothing')).assertStatus(404)

    // An update is checked against the stored type, and shows at once; audited before/after.
    const id = limit.body().data.id
    assertValidationError(
      assert,
      await client.put(`/api/admin/params/${id}`).json({ value: 'ten' }).loginAs(admin),
      ['value']
    )
    assertValidationError(
      assert,
      await client.put(`/api/admin/params/${id}`).json({ type: 'boolean' }).loginAs(admin),
      ['value']
    )
    ;(
      await client.put(`/api/admin/params/${id}`).json({ value: '10' }).loginAs(admin)
    ).assertStatus(200)
    assert.equal((await client.get('/api/params/upload.limit')).body().data.value, 10)
    const audit = await db
      .from('audit_logs')
      .where('target_type', 'param')
      .where('target_id', String(id))
      .orderBy('id', 'desc')
      .first()
    const changes = typeof audit.changes === 'string' ? JSON.parse(audit.changes) : audit.changes
    assert.deepEqual(changes.value, ['2.5', '10'])
    // Raw SQL counts too; withdrawing public makes it 404.
    await db.from('params').where('key', 'upload.limit').update({ is_public: false })
    ;(await client.get('/api/params/upload.limit')).assertStatus(404)
  })

  test('a system parameter is never deleted nor re-keyed (409)', async ({ client, assert }) => {
    const { user: admin } = await userWithPermissions(Object.values(param))
    const system = await Param.findByOrFail('key', 'site.title')
    const deleted = await client.delete(`/api/admin/params/${system.id}`).loginAs(admin)
    deleted.assertStatus(409)
    assert.equal(deleted.body().errors[0].code, 'E_CONFLICT')
    ;(
      await client.put(`/api/admin/params/${system.id}`).json({ key: 'other' }).loginAs(admin)
    ).assertStatus(409)
    ;(
      await client.put(`/api/admin/params/${system.id}`).json({ value: 'My site' }).loginAs(admin)
    ).assertStatus(200)
    assert.isNotNull(await Param.findBy('key', 'site.title'))
  })
})

test.group('Notices', (group) => {
  isolate(group)

  test('Markdown rendered without raw HTML or script URLs', async ({ client, assert }) => {
    const { user: admin } = await userWithPermissions(Object.values(notice))
    const body =
      '# Hi\n\n**bold** <script>alert(1)</script> <img src=x onerror=alert(1)>\n\n' +
      '[click](javascript:alert(1)) [ok](https://example.com)'
    const created = await client
      .post('/api/admin/notices')
      .json({ title: 'T', body })
      .loginAs(admin)
    created.assertStatus(201)
    const html: string = created.body().data.bodyHtml
    assert.include(html, '<strong>bold</strong>')
    assert.include(html, '&lt;script&gt;')
    assert.notInclude(html, '<script')
    assert.notInclude(html, '<img')
    assert.notInclude(html, 'href="javascript:')
    assert.include(html, 'href="https://example.com" rel="noopener noreferrer nofollow"')
    assertValidationError(
      assert,
      await client
        .post('/api/admin/notices')
        .json({ title: '', body: '', level: 'loud', status: 'gone', publishedAt: 'tomorrow' })
        .loginAs(admin),
      ['title', 'body', 'level', 'status', 'publishedAt']
    )
  })

  test("a remote image is a link, never an <img> a reader's browser would fetch", async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions(Object.values(notice))
    const pixel = 'data:image/png;base64,iVBORw0KGgo='
    const body =
      '![pixel](https://tracker.example/p.gif?to=all) ![](//cdn.example/x.png "t")\n\n' +
      `[![nested](http://tracker.example/n.png)](https://example.com) ![local](/api/x.png) ![dot](${pixel})`
    const created = await client
      .post('/api/admin/notices')
      .json({ title: 'Pixel', body, status: 'published' })
      .loginAs(admin)
    created.assertStatus(201)
    const html: string = created.body().data.bodyHtml
    const sources = [...html.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/g)].map((match) => match[1])
    assert.deepEqual(sources, [pixel])
    assert.include(
      html,
      '<a href="https://tracker.example/p.gif?to=all" rel="noopener noreferrer nofollow">pixel</a>'
    )
    assert.include(html, '>//cdn.example/x.png</a>')
    assert.include(html, '>nested</a>')
    assert.include(html, '<a href="/api/x.png" rel="noopener noreferrer nofollow">local</a>')
    // The reader's own list renders it the same way.
    const own = await client.get('/api/auth/notices').loginAs(admin)
    own.assertStatus(200)
    const mine = own.body().data.notices.find((row: any) => row.title === 'Pixel')
    assert.notMatch(mine.bodyHtml, /<img\b[^>]*src="(?!data:)/)
  })

  test('own notices: published and due only, unread first, unread count, read once', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions(Object.values(notice))
    const make = async (title: string, extra: object) =>
      (
        await client
          .post('/api/admin/notices')
          .json({ title, body: title, ...extra })
          .loginAs(admin)
      ).body().data.id as number
    const old = await make('Old', { status: 'published', publishedAt: '2020-01-01T00:00:00Z' })
    const fresh = await make('Fresh', { status: 'published', level: 'warning' })
    const draft = await make('Draft', {})
    await make('Later', { status: 'published', publishedAt: '2999-01-01T00:00:00Z' })

    const reader = await UserFactory.create()
    const mine = async () => (await client.get('/api/auth/notices').loginAs(reader)).body().data
    let data = await mine()
    assert.equal(data.unread, 2)
    assert.deepEqual(
      data.notices.map((n: { title: string }) => n.title),
      ['Fresh', 'Old']
    )
    ;(await client.post(`/api/auth/notices/${fresh}/read`).loginAs(reader)).assertStatus(204)
    ;(await client.post(`/api/auth/notices/${fresh}/read`).loginAs(reader)).assertStatus(204)
    data = await mine()
    assert.equal(data.unread, 1)
    assert.deepEqual(
      data.notices.map((n: { title: string; read: boolean }) => [n.title, n.read]),
      [
        ['Old', false],
        ['Fresh', true],
      ]
    )
    // Others' read state is their own.
    assert.equal((await client.get('/api/auth/notices').loginAs(admin)).body().data.unread, 2)
    ;(await client.post(`/api/auth/notices/${draft}/read`).loginAs(reader)).assertStatus(404)
    ;(await client.post(`/api/auth/notices/424242/read`).loginAs(reader)).assertStatus(404)
    ;(await client.get('/api/auth/notices')).assertStatus(401)
    // Deleting a notice takes its read state.
    ;(await client.delete(`/api/admin/notices/${fresh}`).loginAs(admin)).assertStatus(204)
    assert.equal(await count('notice_reads'), 0)
    assert.isAbove(old, 0)
  })

  test('the bell is held, yet a new, edited, deleted or due notice shows on the next request', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions(Object.values(notice))
    const reader = await UserFactory.create()
    const titles = async () =>
      (await client.get('/api/auth/notices').loginAs(reader))
        .body()
        .data.notices.map((n: { title: string; bodyHtml: string }) => `${n.title}: ${n.bodyHtml}`)
    const created = await client
      .post('/api/admin/notices')
      .json({ title: 'One', body: '**one**', status: 'published' })
      .loginAs(admin)
    const id = created.body().data.id
    assert.deepEqual(await titles(), ['One: <p><strong>one</strong></p>\n'])
    // The bell's JSON, written once per notice, says what the serializer says.
    const [shown] = (await client.get('/api/auth/notices').loginAs(reader)).body().data.notices
    assert.deepEqual(shown, {
      id,
      title: 'One',
      level: 'info',
      publishedAt: (await client.get(`/api/admin/notices/${id}`).loginAs(admin)).body().data
        .publishedAt,
      bodyHtml: '<p><strong>one</strong></p>\n',
      read: false,
    })
    // Held now: the same answer without a write.
    assert.deepEqual(await titles(), ['One: <p><strong>one</strong></p>\n'])

    await client.put(`/api/admin/notices/${id}`).json({ body: '_two_' }).loginAs(admin)
    assert.deepEqual(await titles(), ['One: <p><em>two</em></p>\n'])
    // Any writer counts: raw SQL too.
    await db.from('notices').where('id', id).update({ title: 'Raw' })
    assert.deepEqual(await titles(), ['Raw: <p><em>two</em></p>\n'])
    // The reader's read state too, whoever writes it.
    const readFlags = async () =>
      (await client.get('/api/auth/notices').loginAs(reader)).body().data.notices[0].read
    assert.isFalse(await readFlags())
    await db
      .table('notice_reads')
      .insert({ notice_id: id, user_id: reader.id, read_at: new Date().toISOString() })
    assert.isTrue(await readFlags())
    await db.from('notice_reads').delete()
    assert.isFalse(await readFlags())
    // Scheduled: hidden until its time comes, then shown with no write in between.
    const due = new Date(Date.now() + 1500)
    await client
      .post('/api/admin/notices')
      .json({ title: 'Due', body: 'due', status: 'published', publishedAt: due.toISOString() })
      .loginAs(admin)
    assert.deepEqual(await titles(), ['Raw: <p><em>two</em></p>\n'])
    await new Promise((resolve) => setTimeout(resolve, due.getTime() - Date.now() + 50))
    assert.deepEqual(await titles(), ['Due: <p>due</p>\n', 'Raw: <p><em>two</em></p>\n'])

    ;(await client.delete(`/api/admin/notices/${id}`).loginAs(admin)).assertStatus(204)
    assert.deepEqual(await titles(), ['Due: <p>due</p>\n'])
  })
})

const importUrl = (dryRun: boolean) => `/api/admin/users/import?dryRun=${dryRun}`
function upload(
  client: ApiClient,
  who: User,
  file: Buffer | string,
  dryRun = false,
  name = 'u.csv'
) {
  return client
    .post(importUrl(dryRun))
    .file('file', Buffer.isBuffer(file) ? file : Buffer.from(file), { filename: name })
    .loginAs(who)
}

test.group('User import', (group) => {
  isolate(group)

  test('dry run reports every row problem and writes nothing; then an import creates all', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions([user.import])
    await UserFactory.merge({ account: 'taken' }).create()
    const before = await count('users')
    const bad = [
      'account,nickname,email,deptId,roles,status',
      'good1,One,one@example.com,,,enabled',
      'x,Too short,,,,',
      'TAKEN,,,,,',
      'good1,Twice,,,,',
      'good2,,not-an-email,424242,no_such_role,maybe',
    ].join('\r\n')
    const dry = await upload(client, admin, bad, true)
    dry.assertStatus(200)
    assert.equal(dry.body().data.rows, 5)
    const problems = dry
      .body()
      .data.errors.map(
        (e: { row: number; field: string; code: string }) => `${e.row} ${e.field} ${e.code}`
      )
    assert.includeMembers(problems, [
      '3 account E_VALIDATION_ERROR',
      '4 account E_CONFLICT',
      '5 account E_CONFLICT',
      '6 email E_VALIDATION_ERROR',
      '6 status E_VALIDATION_ERROR',
    ])
    assert.equal(await count('users'), before)
    // Not a dry run: the same file is refused whole (422), rows named.
    const refused = await upload(client, admin, bad)
    refused.assertStatus(422)
    assert.isTrue(refused.body().errors.every((e: { row: number }) => e.row >= 3))
    assert.equal(await count('users'), before)

    const role = await roleWithPermissions([])
    const dept = await Dept.root()
    const good = `account,nickname,deptId,roles\r\nann,Ann,${dept.id},${role.code}\r\nbob,Bob,,\r\n`
    const done = await upload(client, admin, good)
    done.assertStatus(200)
    const created = done.body().data.created
    assert.lengthOf(created, 2)
    const ann = await User.findByOrFail('account', 'ann')
    assert.isTrue(ann.mustChangePassword)
    assert.equal(ann.deptId, dept.id)
    assert.deepEqual(
      (await db.from('user_roles').where('user_id', ann.id)).map((r) => Number(r.role_id)),
      [role.id]
    )
    assert.match(created[0].initialPassword, /^.{16,}$/)
    // One audit row for the whole import, with the count.
    const rows = await db.from('audit_logs').where('permission', user.import)
    assert.lengthOf(rows, 1)
    const changes =
      typeof rows[0].changes === 'string' ? JSON.parse(rows[0].changes) : rows[0].changes
    assert.deepEqual(changes.imported, [0, 2])
  })

  test('a row granting a role the caller lacks, or placing out of scope, fails the whole import', async ({
    client,
    assert,
  }) => {
    const root = await Dept.root()
    const a = await Dept.create({ parentId: root.id, name: 'A', sort: 0, status: 'enabled' })
    const b = await Dept.create({ parentId: root.id, name: 'B', sort: 0, status: 'enabled' })
    const own = await roleWithPermissions([user.import], { dataScope: 'dept' })
    const admin = await UserFactory.merge({ deptId: a.id }).create()
    await admin.related('roles').attach([own.id])
    const richer = await roleWithPermissions([user.delete], { dataScope: 'dept' })
    const within = await roleWithPermissions([], { dataScope: 'dept' })
    const before = await count('users')

    const grants = `account,deptId,roles\r\nfine1,${a.id},${within.code}\r\nrich1,${a.id},${richer.code}\r\n`
    const refused = await upload(client, admin, grants)
    assertForbidden(assert, refused)
    assert.deepInclude(refused.body().errors[0], { row: 3, field: 'roles', code: 'E_FORBIDDEN' })
    assert.equal(await count('users'), before)

    const placed = `account,deptId,roles\r\nfine2,${a.id},\r\nelse1,${b.id},\r\n`
    const scope = await upload(client, admin, placed)
    assertForbidden(assert, scope)
    assert.deepInclude(scope.body().errors[0], { row: 3, field: 'deptId', code: 'E_FORBIDDEN' })
    assert.equal(await count('users'), before)

    // Within what the caller holds and sees: imported.
    const fine = `account,deptId,roles\r\nfine3,${a.id},${within.code}\r\n`
    ;(await upload(client, admin, fine)).assertStatus(200)
    assert.equal(await count('users'), before + 1)
    // super_admin is never granted by a non-super caller.
    const superRow = `account,deptId,roles\r\nsup1,${a.id},super_admin\r\n`
    assertForbidden(assert, await upload(client, admin, superRow))
    // A super administrator may.
    const sup = await superAdminUser()
    ;(await upload(client, sup, superRow)).assertStatus(200)
  })

  test('malformed files and formula cells: 422 in the error contract, nothing written', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions([user.import])
    const before = await count('users')
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
    assertValidationError(assert, await upload(client, admin, png, false, 'u.png'), ['file'])
    const book = xlsx([['account'], ['okay1']])
    assertValidationError(
      assert,
      await upload(client, admin, book.subarray(0, book.length - 40), false, 'u.xlsx'),
      ['file']
    )
    assertValidationError(assert, await upload(client, admin, 'account\r\n"unterminated\r\n'), [
      'file',
    ])
    assertValidationError(assert, await upload(client, admin, 'who,what\r\na,b\r\n'), ['file'])
    assertValidationError(assert, await upload(client, admin, 'account\r\n'), ['file'])
    const formulas = await upload(
      client,
      admin,
      'account,nickname\r\nok1,=SUM(1;2)\r\nok2,+1\r\nok3,@SUM(A1)\r\nok4,-2\r\n'
    )
    assertValidationError(assert, formulas, ['nickname'])
    assert.deepEqual(
      formulas.body().errors.map((e: { row: number }) => e.row),
      [2, 3, 4, 5]
    )
    // Without the part, or not multipart: 422 on file.
    assertValidationError(assert, await client.post(importUrl(false)).json({}).loginAs(admin), [
      'file',
    ])
    // More than 10,000 rows.
    const many = ['account', ...Array.from({ length: 10_001 }, (_, i) => `u${i}x`)].join('\n')
    const tooMany = await upload(client, admin, many, true)
    assertValidationError(assert, tooMany, ['file'])
    assert.equal(tooMany.body().errors[0].rule, 'maxRows')
    assert.equal(await count('users'), before)
  })

  test('XLSX: read, a formula cell gives its computed value; the template downloads', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions([user.import])
    const book = xlsx([
      ['account', 'nickname'],
      ['xls1', { formula: 'CONCAT("A","B")', value: 'AB' }],
      ['xls2', { formula: 'CHAR(61)&"1+1"', value: '=1+1' }],
    ])
    const response = await upload(client, admin, book, true, 'u.xlsx')
    response.assertStatus(200)
    assert.deepEqual(
      response.body().data.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
      [[3, 'nickname']]
    )
    const fixed = xlsx([
      ['account', 'nickname'],
      ['xls1', { formula: 'CONCAT("A","B")', value: 'AB' }],
    ])
    ;(await upload(client, admin, fixed, false, 'u.xlsx')).assertStatus(200)
    assert.equal((await User.findByOrFail('account', 'xls1')).nickname, 'AB')

    const template = await client.get('/api/admin/users/import/template').loginAs(admin)
    template.assertStatus(200)
    assert.match(template.header('content-type') ?? '', /^text\/csv/)
    assert.match(template.text(), /^\uFEFFaccount,nickname,email,status,roles,deptId\r\n/)
  })
})
