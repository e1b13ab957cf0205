import { test } from '@japa/runner'
import { request as httpRequest } from 'node:http'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import emitter from '@adonisjs/core/services/emitter'
import env from '#start/env'
import User from '#models/user'
import { PERMISSIONS } from '#auth/permissions'
import { buildDocument } from '#openapi/document'
import { MAX_EXPORT_ROWS } from '#services/admin/list_export'
import { userCsv } from '#resources/users'
import { loginLogCsv } from '#resources/login_logs'
import { auditLogCsv } from '#resources/audit_logs'
import { isolate, withRealCommits } from '#tests/helpers/database'
import { createAdmin, sessionToken, superAdminUser, userWithPermissions } from '#tests/helpers/auth'
import { assertForbidden, assertValidationError } from '#tests/helpers/assertions'
import { parseCsv, records } from '#tests/helpers/csv'

const { user: userCodes, loginLog, auditLog } = PERMISSIONS

/** Every admin list operation of the document, with the values its `sort` parameter allows. */
async function documentedLists() {
  const { document } = await buildDocument({ title: 'tests', version: '0' })
  return Object.entries<Record<string, any>>(document.paths)
    .filter(([path, operations]) => {
      const names = (operations.get?.parameters ?? []).map((p: { name: string }) => p.name)
      return path.startsWith('/api/admin/') && names.includes('pageNum')
    })
    .map(([path, operations]) => {
      const sort = operations.get.parameters.find((p: { name: string }) => p.name === 'sort')
      // A nested list (a dictionary's items) on a seeded parent; the holders of a permission code.
      const concrete = path.replace(
        '{code}',
        path.startsWith('/api/admin/access/') ? userCodes.list : 'sys_user_status'
      )
      return { path: concrete, values: (sort?.schema?.enum ?? []) as string[] }
    })
}

/**
 * `count` login-log rows in one statement (a recursive CTE feeding INSERT ... SELECT, on both
 * databases), a day old.
 */
async function insertLoginLogs(count: number, account: string) {
  const at = DateTime.utc().minus({ days: 1 }).toFormat(db.connection().dialect.dateTimeFormat)
  await db.rawQuery(
    `INSERT INTO login_logs (created_at, account, ip, user_agent, outcome, count)
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${Number(count)})
     SELECT '${at}', '${account}', '10.9.9.9', 'bulk', 'wrong_password', 1 FROM n`
  )
}

test.group('Lists: sort from a per-resource allow-list', (group) => {
  isolate(group)

  test('every admin list documents its sort values, and each answers 200 both ways', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const lists = await documentedLists()
    assert.includeMembers(
      lists.map((list) => list.path),
      [
        '/api/admin/users',
        '/api/admin/roles',
        '/api/admin/menus',
        '/api/admin/articles',
        '/api/admin/sessions',
        '/api/admin/tokens',
        '/api/admin/login-logs',
        '/api/admin/audit-logs',
      ]
    )
    for (const { path, values } of lists) {
      assert.isAbove(values.length, 0, `${path} documents no sort values`)
      for (const value of values) {
        const field = value.replace(/^-/, '')
        assert.includeMembers(values, [field, `-${field}`], path)
        const response = await client.get(path).qs({ sort: value }).loginAs(boss)
        assert.equal(response.status(), 200, `${path}?sort=${value}: ${response.text()}`)
      }
    }
  })

  test('a field outside the allow-list is a 422 on every list and export, naming `sort`', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const paths = (await documentedLists()).map((list) => list.path)
    paths.push('/api/admin/users/export', '/api/admin/login-logs/export')
    for (const path of paths) {
      for (const sort of ['password', '-tokenVersion', 'id desc', '--id', 'id,account']) {
        const response = await client.get(path).qs({ sort, format: 'csv' }).loginAs(boss)
        assertValidationError(assert, response, ['sort'])
      }
    }
  })

  test('users: by account either way, pages follow the order, empty values last on both databases', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const b = await createAdmin('sorted.b')
    const a = await createAdmin('sorted.a')
    const c = await createAdmin('sorted.c')
    await User.query().where('id', a.id).update({ last_login_at: '2026-01-01 10:00:00' })
    await User.query().where('id', c.id).update({ last_login_at: '2026-02-01 10:00:00' })
    const accounts = async (qs: Record<string, unknown>) => {
      const response = await client
        .get('/api/admin/users')
        .qs({ keyword: 'sorted.', ...qs })
        .loginAs(boss)
      response.assertStatus(200)
      return response.body().data.map((row: { account: string }) => row.account)
    }
    // Default order unchanged: by id.
    assert.deepEqual(await accounts({}), ['sorted.b', 'sorted.a', 'sorted.c'])
    assert.deepEqual(await accounts({ sort: 'account' }), ['sorted.a', 'sorted.b', 'sorted.c'])
    assert.deepEqual(await accounts({ sort: '-account' }), ['sorted.c', 'sorted.b', 'sorted.a'])
    assert.deepEqual(await accounts({ sort: '-account', pageSize: 2, pageNum: 2 }), ['sorted.a'])
    assert.deepEqual(await accounts({ sort: 'lastLoginAt' }), ['sorted.a', 'sorted.c', 'sorted.b'])
    assert.deepEqual(await accounts({ sort: '-lastLoginAt' }), ['sorted.c', 'sorted.a', 'sorted.b'])
    // Ties are broken by id in the sort's direction.
    assert.deepEqual(
      await accounts({ sort: 'status' }),
      [b, a, c].map((user) => user.account)
    )
    assert.deepEqual(
      await accounts({ sort: '-status' }),
      [c, a, b].map((user) => user.account)
    )
  })

  test('login log: by account, or oldest first; default newest first', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const format = db.connection().dialect.dateTimeFormat
    const at = (hours: number) => DateTime.utc().minus({ hours }).toFormat(format)
    await db.table('login_logs').multiInsert([
      { created_at: at(3), account: 'lb', ip: '10.1.1.1', outcome: 'wrong_password' },
      { created_at: at(1), account: 'la', ip: '10.1.1.1', outcome: 'wrong_password' },
      { created_at: at(2), account: 'lc', ip: '10.1.1.1', outcome: 'wrong_password' },
    ])
    const accounts = async (sort?: string) => {
      const response = await client
        .get('/api/admin/login-logs')
        .qs({ ip: '10.1.1.1', ...(sort ? { sort } : {}) })
        .loginAs(boss)
      response.assertStatus(200)
      return response.body().data.map((row: { account: string }) => row.account)
    }
    assert.deepEqual(await accounts(), ['la', 'lc', 'lb'])
    assert.deepEqual(await accounts('-createdAt'), ['la', 'lc', 'lb'])
    assert.deepEqual(await accounts('createdAt'), ['lb', 'lc', 'la'])
    assert.deepEqual(await accounts('account'), ['la', 'lb', 'lc'])
    assert.deepEqual(await accounts('-account'), ['lc', 'lb', 'la'])
  })
})

test.group('Lists: CSV exports', (group) => {
  isolate(group)

  test('users: a streamed attachment, header row from the shape, no secret column', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const response = await client.get('/api/admin/users/export').qs({ format: 'csv' }).loginAs(boss)
    response.assertStatus(200)
    assert.equal(response.header('content-type'), 'text/csv; charset=utf-8')
    assert.match(
      response.header('content-disposition') ?? '',
      /^attachment; filename="users-\d{8}T\d{6}Z\.csv"$/
    )
    assert.equal(response.header('transfer-encoding'), 'chunked')
    assert.isUndefined(response.header('content-length'))
    assert.equal(response.header('cache-control'), 'no-store')
    const [header] = parseCsv(response.text())
    assert.deepEqual(header, userCsv.names)
    assert.deepEqual(header, [
      'id',
      'account',
      'nickname',
      'email',
      'emailVerified',
      'status',
      'lastLoginAt',
      'twoFactorEnabled',
      'createdAt',
      'passwordChangeRequired',
      'passwordExpiresAt',
      'avatarUrl',
      'updatedAt',
      'deptId',
      'roles',
    ])
    for (const name of header) {
      assert.notMatch(name, /^password$|digest|secret|hash|token/i)
    }
    const digest = (await User.findOrFail(boss.id)).password
    assert.notInclude(response.text(), digest)
    assert.notInclude(response.text(), '$argon2')
    const row = records(response.text()).find((record) => record.id === String(boss.id))!
    assert.equal(row.account, boss.account)
    assert.equal(row.roles, 'super_admin')
    assert.equal(row.twoFactorEnabled, 'false')
    // The log exports' headers are their shapes too.
    for (const [path, columns] of [
      ['/api/admin/login-logs/export', loginLogCsv],
      ['/api/admin/audit-logs/export', auditLogCsv],
    ] as const) {
      const log = await client.get(path).qs({ format: 'csv' }).loginAs(boss)
      log.assertStatus(200)
      assert.deepEqual(parseCsv(log.text())[0], columns.names)
    }
  })

  test('users: the rows and order of the list for the same filters and sort', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const { role } = await userWithPermissions([userCodes.list])
    for (const account of ['exp.one', 'exp.two', 'exp.three', 'other.four']) {
      const user = await createAdmin(account)
      if (account !== 'exp.two') await user.related('roles').attach([role.id])
    }
    await User.query().where('account', 'exp.three').update({ status: 'disabled' })
    for (const qs of [
      { keyword: 'exp.' },
      { keyword: 'exp.', sort: '-account' },
      { roleId: role.id, sort: 'account' },
      { keyword: 'exp.', status: 'enabled' },
      { status: 'disabled' },
      { keyword: 'nobody-matches' },
    ]) {
      const list = await client
        .get('/api/admin/users')
        .qs({ ...qs, pageSize: 100 })
        .loginAs(boss)
      const csv = await client
        .get('/api/admin/users/export')
        .qs({ ...qs, format: 'csv' })
        .loginAs(boss)
      csv.assertStatus(200)
      assert.deepEqual(
        records(csv.text()).map((row) => Number(row.id)),
        list.body().data.map((row: { id: number }) => row.id),
        JSON.stringify(qs)
      )
    }
    const enabled = await client
      .get('/api/admin/users/export')
      .qs({ keyword: 'exp.', sort: 'account', format: 'csv' })
      .loginAs(boss)
    assert.deepEqual(
      records(enabled.text()).map((row) => row.account),
      ['exp.one', 'exp.three', 'exp.two']
    )
  })

  test('logs: the filters and sort of their lists', async ({ client, assert }) => {
    const boss = await superAdminUser()
    const format = db.connection().dialect.dateTimeFormat
    const at = (hours: number) => DateTime.utc().minus({ hours }).toFormat(format)
    await db.table('login_logs').multiInsert([
      { created_at: at(30), account: 'old', ip: '10.2.2.2', outcome: 'wrong_password' },
      { created_at: at(3), account: 'mid', ip: '10.2.2.2', outcome: 'succeeded' },
      { created_at: at(1), account: 'new', ip: '10.2.2.2', outcome: 'wrong_password' },
      { created_at: at(1), account: 'elsewhere', ip: '10.3.3.3', outcome: 'wrong_password' },
    ])
    const accounts = async (qs: Record<string, unknown>) => {
      const response = await client
        .get('/api/admin/login-logs/export')
        .qs({ format: 'csv', ...qs })
        .loginAs(boss)
      response.assertStatus(200)
      return records(response.text()).map((row) => row.account)
    }
    assert.deepEqual(await accounts({ ip: '10.2.2.2' }), ['new', 'mid', 'old'])
    assert.deepEqual(await accounts({ ip: '10.2.2.2', sort: 'createdAt' }), ['old', 'mid', 'new'])
    assert.deepEqual(await accounts({ ip: '10.2.2.2', outcome: 'wrong_password' }), ['new', 'old'])
    const from = DateTime.utc().minus({ hours: 5 }).toISO()
    assert.deepEqual(await accounts({ ip: '10.2.2.2', from }), ['new', 'mid'])

    // The audit log: its rows, filtered by permission (the exports above are audited too).
    const audit = await client
      .get('/api/admin/audit-logs/export')
      .qs({ format: 'csv', permission: loginLog.export })
      .loginAs(boss)
    audit.assertStatus(200)
    const rows = records(audit.text())
    assert.lengthOf(rows, 4)
    for (const row of rows) {
      assert.equal(row.permission, loginLog.export)
      assert.equal(row.actor, boss.account)
    }
  })

  test('each export leaves an audit row: who, what, which filters, how many rows', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    await createAdmin('audited.export')
    // A HEAD reads no rows and exports nothing: no audit row.
    const head = await client.head('/api/admin/users/export').qs({ format: 'csv' }).loginAs(boss)
    head.assertStatus(200)
    assert.equal(head.header('content-type'), 'text/csv; charset=utf-8')
    assert.lengthOf(await db.from('audit_logs'), 0)
    const response = await client
      .get('/api/admin/users/export')
      .qs({ format: 'csv', keyword: 'audited.', sort: '-account', pageSize: 5 })
      .loginAs(boss)
    response.assertStatus(200)
    const rows = await db.from('audit_logs')
    assert.lengthOf(rows, 1)
    assert.isNotNull(rows[0].request_id)
    assert.include(rows[0], {
      actor_id: boss.id,
      actor: boss.account,
      permission: userCodes.export,
      target_type: 'user',
      target_id: null,
      outcome: 'succeeded',
    })
    const changes =
      typeof rows[0].changes === 'string' ? JSON.parse(rows[0].changes) : rows[0].changes
    assert.deepEqual(changes, {
      filters: [null, { format: 'csv', keyword: 'audited.', sort: '-account' }],
      rows: [null, 1],
    })
  })

  test('formula cells are prefixed with a quote and quoted; other text is kept as is', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const hostile = [
      '=HYPERLINK("http://evil.example","click")',
      '+1+2',
      '-2+3',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
      '＝1',
    ]
    const format = db.connection().dialect.dateTimeFormat
    await db.table('login_logs').multiInsert(
      hostile.map((account, i) => ({
        created_at: DateTime.utc().minus({ minutes: i }).toFormat(format),
        account,
        ip: '10.4.4.4',
        user_agent: i === 0 ? 'a, "quoted" agent\nwith a newline' : 'plain',
        outcome: 'unknown_account',
      }))
    )
    const response = await client
      .get('/api/admin/login-logs/export')
      .qs({ format: 'csv', ip: '10.4.4.4' })
      .loginAs(boss)
    response.assertStatus(200)
    const rows = records(response.text())
    assert.deepEqual(
      rows.map((row) => row.account),
      hostile.map((text) => `'${text}`)
    )
    assert.equal(rows[0].userAgent, 'a, "quoted" agent\nwith a newline')
    assert.equal(rows[1].userAgent, 'plain')
    // As written on the wire: quoted, inner quotes doubled.
    assert.include(response.text(), `"'=HYPERLINK(""http://evil.example"",""click"")"`)
    assert.include(response.text(), `,"'-2+3",`)
    assert.include(response.text(), `,plain,`)
  })

  test('without the export code: 403, nothing written; the format is required', async ({
    client,
    assert,
  }) => {
    const exportCodes: string[] = [userCodes.export, loginLog.export, auditLog.export]
    const everythingElse = Object.values(PERMISSIONS)
      .flatMap((codes) => Object.values(codes) as string[])
      .filter((code) => !exportCodes.includes(code))
    const { user: reader } = await userWithPermissions(everythingElse)
    const before = await db.from('audit_logs').count('* as total')
    for (const path of ['users', 'login-logs', 'audit-logs']) {
      const response = await client
        .get(`/api/admin/${path}/export`)
        .qs({ format: 'csv' })
        .loginAs(reader)
      assertForbidden(assert, response)
      assert.notInclude(response.text(), 'account')
      // The list itself is allowed.
      ;(await client.get(`/api/admin/${path}`).loginAs(reader)).assertStatus(200)
    }
    assert.deepEqual(await db.from('audit_logs').count('* as total'), before)
    const boss = await superAdminUser()
    assertValidationError(assert, await client.get('/api/admin/users/export').loginAs(boss), [
      'format',
    ])
    assertValidationError(
      assert,
      await client.get('/api/admin/users/export').qs({ format: 'pdf' }).loginAs(boss),
      ['format']
    )
    assert.deepEqual(await db.from('audit_logs').count('* as total'), before)
  })
})

test.group('Lists: the export bound and streaming', (group) => {
  // Real commits: 100k model instances read inside a global transaction would each register a
  // listener on it, and its rollback would spend minutes removing them one by one.
  withRealCommits(group)

  test(`past ${MAX_EXPORT_ROWS} rows: 422, nothing sent or audited; at the bound: every row, streamed`, async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    await insertLoginLogs(MAX_EXPORT_ROWS + 1, 'bulk')
    const refused = await client
      .get('/api/admin/login-logs/export')
      .qs({ format: 'csv', account: 'bulk' })
      .loginAs(boss)
    refused.assertStatus(422)
    assert.deepEqual(
      refused.body().errors.map((e: { code: string }) => e.code),
      ['E_EXPORT_TOO_LARGE']
    )
    assert.include(refused.body().errors[0].message, 'narrow')
    assert.lengthOf(await db.from('audit_logs'), 0)

    // One row fewer: the whole file, sent while the batches are still being read.
    const [{ id }] = await db.from('login_logs').where('account', 'bulk').max('id as id')
    await db.from('login_logs').where('id', id).delete()
    const { token } = await sessionToken(boss.id)
    let batchesRead = 0
    const countBatches = (query: { sql: string }) => {
      if (/from [`"]?login_logs[`"]? where .*\bin \(/i.test(query.sql)) batchesRead++
    }
    emitter.on('db:query', countBatches)
    try {
      const download = await get(
        '/api/admin/login-logs/export?format=csv&account=bulk',
        token,
        () => batchesRead
      )
      assert.equal(download.status, 200)
      assert.equal(download.headers['transfer-encoding'], 'chunked')
      const lines = download.text.split('\r\n')
      assert.equal(lines.pop(), '')
      assert.lengthOf(lines, MAX_EXPORT_ROWS + 1)
      assert.equal(lines[0], '\uFEFF' + loginLogCsv.names.join(','))
      assert.match(lines[1], /^\d+,.*,bulk,,10\.9\.9\.9,bulk,wrong_password,1$/)
      // Streamed: the first bytes left before the last of the 100 batches was read.
      assert.equal(batchesRead, MAX_EXPORT_ROWS / 1000)
      assert.isBelow(download.batchesAtFirstChunk, batchesRead)
    } finally {
      emitter.off('db:query', countBatches)
    }
    assert.lengthOf(await db.from('audit_logs'), 1)
  })
})

/** A GET on the test server that notes `progress()` when the first chunk of the body arrives. */
function get(path: string, token: string, progress: () => number) {
  return new Promise<{
    status: number
    headers: Record<string, unknown>
    text: string
    batchesAtFirstChunk: number
  }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: env.get('HOST'),
        port: env.get('PORT'),
        path,
        agent: false,
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        const chunks: Buffer[] = []
        let batchesAtFirstChunk = -1
        res.on('data', (chunk: Buffer) => {
          if (batchesAtFirstChunk < 0) batchesAtFirstChunk = progress()
          chunks.push(chunk)
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            batchesAtFirstChunk,
          })
        )
        res.on('error', reject)
      }
    )
    req.on('error', reject)
    req.end()
  })
}
