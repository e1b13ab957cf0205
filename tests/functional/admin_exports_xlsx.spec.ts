import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { readSheet } from 'read-excel-file/node'
import db from '@adonisjs/lucid/services/db'
import emitter from '@adonisjs/core/services/emitter'
import env from '#start/env'
import type User from '#models/user'
import { PERMISSIONS } from '#auth/permissions'
import { MAX_EXPORT_ROWS } from '#services/admin/list_export'
import { userCsv } from '#resources/users'
import { loginLogCsv } from '#resources/login_logs'
import { auditLogCsv } from '#resources/audit_logs'
import { isolate, withRealCommits } from '#tests/helpers/database'
import { createAdmin, sessionToken, superAdminUser, userWithPermissions } from '#tests/helpers/auth'
import { assertForbidden, assertValidationError } from '#tests/helpers/assertions'
import { parseCsv } from '#tests/helpers/csv'

/**
 * XLSX exports (app/services/admin/list_export.ts, app/core/xlsx_writer.ts), read back by
 * read-excel-file (the parser of the user import): the cells of the CSV export of the same
 * filters, formula-looking text neutralised the same way, streamed, behind the same codes.
 */

const { user: userCodes, loginLog, auditLog } = PERMISSIONS
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** An export over real HTTP (fetch: the body is binary), and when its first bytes came. */
async function download(path: string, user: User, onFirstChunk?: () => void) {
  const { token } = await sessionToken(user.id)
  const response = await fetch(`http://${env.get('HOST')}:${env.get('PORT')}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  const chunks: Uint8Array[] = []
  for await (const chunk of response.body!) {
    if (!chunks.length) onFirstChunk?.()
    chunks.push(chunk)
  }
  return { response, bytes: Buffer.concat(chunks) }
}

/** The sheet's rows as the CSV writes them: every cell as text, an empty cell ''. */
async function sheetText(bytes: Buffer): Promise<string[][]> {
  const rows = await readSheet(bytes, { trim: false })
  return rows.map((row) => row.map((cell) => (cell === null ? '' : String(cell))))
}

/** The XLSX and the CSV of one export path and query: both read back. */
async function both(path: string, query: Record<string, string>, user: User) {
  const qs = (format: string) => new URLSearchParams({ ...query, format }).toString()
  const xlsx = await download(`${path}?${qs('xlsx')}`, user)
  const csv = await download(`${path}?${qs('csv')}`, user)
  if (xlsx.response.status !== 200) throw new Error(`${path}: ${xlsx.bytes.toString()}`)
  return { xlsx, sheet: await sheetText(xlsx.bytes), csv: parseCsv(csv.bytes.toString('utf8')) }
}

test.group('Lists: XLSX exports', (group) => {
  isolate(group)

  test('users: an attachment whose cells are the CSV export’s', async ({ assert }) => {
    const boss = await superAdminUser()
    for (const account of ['xl.one', 'xl.two', 'other.three']) await createAdmin(account)
    const { xlsx, sheet, csv } = await both('/api/admin/users/export', { keyword: 'xl.' }, boss)
    assert.equal(xlsx.response.headers.get('content-type'), XLSX_TYPE)
    assert.match(
      xlsx.response.headers.get('content-disposition') ?? '',
      /^attachment; filename="users-\d{8}T\d{6}Z\.xlsx"$/
    )
    assert.equal(xlsx.response.headers.get('transfer-encoding'), 'chunked')
    assert.equal(xlsx.response.headers.get('cache-control'), 'no-store')
    assert.equal(xlsx.bytes.subarray(0, 4).toString('latin1'), 'PK\x03\x04')
    assert.deepEqual(sheet[0], userCsv.names)
    assert.deepEqual(sheet, csv)
    const account = userCsv.names.indexOf('account')
    assert.deepEqual(
      sheet.slice(1).map((row) => row[account]),
      ['xl.one', 'xl.two']
    )
    // Numbers and booleans stay numbers and booleans in the sheet.
    const [raw] = (await readSheet(xlsx.bytes)).slice(1)
    assert.typeOf(raw[userCsv.names.indexOf('id')], 'number')
    assert.typeOf(raw[userCsv.names.indexOf('twoFactorEnabled')], 'boolean')
  })

  test('login log: filters applied, formula-looking text neutralised as in the CSV', async ({
    assert,
  }) => {
    const boss = await superAdminUser()
    const hostile = ['=HYPERLINK("http://evil.example","x")', '+1+2', '-2+3', '@SUM(A1)', '＝1']
    const format = db.connection().dialect.dateTimeFormat
    const at = (minutes: number) => DateTime.utc().minus({ minutes }).toFormat(format)
    await db.table('login_logs').multiInsert([
      ...hostile.map((account, i) => ({
        created_at: at(i),
        account,
        ip: '10.5.5.5',
        user_agent: i === 0 ? 'a, "quoted" <agent> & co\nwith a newline\u0001' : ' spaced ',
        outcome: 'unknown_account',
      })),
      {
        created_at: at(1),
        account: 'elsewhere',
        ip: '10.6.6.6',
        user_agent: 'plain',
        outcome: 'unknown_account',
      },
    ])
    const { sheet, csv } = await both('/api/admin/login-logs/export', { ip: '10.5.5.5' }, boss)
    assert.deepEqual(sheet[0], loginLogCsv.names)
    assert.deepEqual(sheet, csv)
    const column = (name: string) =>
      sheet.slice(1).map((row) => row[loginLogCsv.names.indexOf(name)])
    assert.deepEqual(
      column('account'),
      hostile.map((text) => `'${text}`)
    )
    assert.deepEqual(column('userAgent'), [
      'a, "quoted" <agent> & co\nwith a newline\u0001',
      ' spaced ',
      ' spaced ',
      ' spaced ',
      ' spaced ',
    ])
  })

  test('audit log: the permission filter; a HEAD exports nothing', async ({ assert, client }) => {
    const boss = await superAdminUser()
    await download('/api/admin/users/export?format=csv', boss)
    await download('/api/admin/login-logs/export?format=xlsx', boss)
    const head = await client.head('/api/admin/users/export').qs({ format: 'xlsx' }).loginAs(boss)
    head.assertStatus(200)
    assert.equal(head.header('content-type'), XLSX_TYPE)
    const { sheet, csv } = await both(
      '/api/admin/audit-logs/export',
      { permission: loginLog.export },
      boss
    )
    assert.deepEqual(sheet[0], auditLogCsv.names)
    assert.deepEqual(sheet, csv)
    assert.lengthOf(sheet, 2)
    assert.equal(sheet[1][auditLogCsv.names.indexOf('permission')], loginLog.export)
    const audited = await db.from('audit_logs').where('permission', userCodes.export)
    assert.lengthOf(audited, 1)
  })

  test('access matrix: the CSV’s rows, a hostile nickname neutralised', async ({ assert }) => {
    const boss = await superAdminUser()
    const hostile = await createAdmin('xl.matrix')
    await hostile.merge({ nickname: '=HYPERLINK("http://evil.example")' }).save()
    const { xlsx, sheet, csv } = await both('/api/admin/access/export', {}, boss)
    assert.equal(xlsx.response.headers.get('content-type'), XLSX_TYPE)
    assert.match(
      xlsx.response.headers.get('content-disposition') ?? '',
      /^attachment; filename="access-matrix-\d{8}T\d{6}Z\.xlsx"$/
    )
    assert.deepEqual(sheet[0].slice(0, 4), ['id', 'account', 'nickname', 'status'])
    assert.deepEqual(sheet, csv)
    const row = sheet.find((cells) => cells[1] === 'xl.matrix')!
    assert.equal(row[2], `'${hostile.nickname}`)
    // The super admin holds every code.
    const own = sheet.find((cells) => cells[1] === boss.account)!
    assert.deepEqual(own.slice(4), Array(sheet[0].length - 4).fill('x'))
  })

  test('without the export code: 403, nothing written; an unknown format is a 422', async ({
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
        .qs({ format: 'xlsx' })
        .loginAs(reader)
      assertForbidden(assert, response)
    }
    const boss = await superAdminUser()
    for (const format of ['xls', 'XLSX', 'pdf']) {
      assertValidationError(
        assert,
        await client.get('/api/admin/users/export').qs({ format }).loginAs(boss),
        ['format']
      )
    }
    assert.deepEqual(await db.from('audit_logs').count('* as total'), before)
  })
})

test.group('Lists: XLSX exports, streamed', (group) => {
  // Real commits: thousands of model instances read inside a global transaction would each
  // register a listener on it (as for the CSV bound test in admin_lists.spec.ts).
  withRealCommits(group)

  test(`streamed in batches; past ${MAX_EXPORT_ROWS} rows a 422 as for CSV`, async ({ assert }) => {
    const boss = await superAdminUser()
    const at = DateTime.utc().minus({ days: 1 }).toFormat(db.connection().dialect.dateTimeFormat)
    const insert = (count: number, account: string) =>
      db.rawQuery(
        `INSERT INTO login_logs (created_at, account, ip, user_agent, outcome, count)
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
         SELECT '${at}', '${account}', '10.9.9.9', 'bulk', 'wrong_password', 1 FROM n`
      )
    await insert(10_000, 'batched')
    let batchesRead = 0
    let batchesAtFirstChunk = -1
    const countBatches = (query: { sql: string }) => {
      if (/from [`"]?login_logs[`"]? where .*\bin \(/i.test(query.sql)) batchesRead++
    }
    emitter.on('db:query', countBatches)
    try {
      const { response, bytes } = await download(
        '/api/admin/login-logs/export?format=xlsx&account=batched',
        boss,
        () => (batchesAtFirstChunk = batchesRead)
      )
      assert.equal(response.status, 200)
      const sheet = await sheetText(bytes)
      assert.lengthOf(sheet, 10_001)
      assert.deepEqual(sheet[10_000].slice(2, 5), ['batched', '', '10.9.9.9'])
      assert.equal(batchesRead, 10)
      assert.isBelow(batchesAtFirstChunk, batchesRead)
    } finally {
      emitter.off('db:query', countBatches)
    }

    await insert(MAX_EXPORT_ROWS + 1, 'toomany')
    const refused = await download('/api/admin/login-logs/export?format=xlsx&account=toomany', boss)
    assert.equal(refused.response.status, 422)
    assert.equal(JSON.parse(refused.bytes.toString()).errors[0].code, 'E_EXPORT_TOO_LARGE')
  })
})
