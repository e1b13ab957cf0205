import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import type { Assert } from '@japa/assert'
import type { ApiResponse } from '@japa/api-client'
import type User from '#models/user'
import Dept from '#models/dept'
import { PERMISSIONS } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { assertForbidden, assertValidationError } from '#tests/helpers/assertions'
import { roleWithPermissions } from '#database/factories/role_factory'
import { UserFactory, userWithPermissions } from '#database/factories/user_factory'
import {
  part,
  repeatedPart,
  sheetXml,
  workbookParts,
  workbookWith,
  xlsx,
} from '#tests/helpers/xlsx'

/**
 * The user import's bounds (issue 50, R4-2 and R4-4; docs/admin-modules.md, "User import"): what
 * a file may make the server inflate, hold and compute before it is refused, and that a refused
 * file never reaches the password hashing. The application runs in this process, so its memory
 * is this process's.
 */
const { user } = PERMISSIONS
const MB = 1024 * 1024
const SHEET = 'xl/worksheets/sheet1.xml'
const count = async () => Number((await db.from('users').count('* as n'))[0].n)

function upload(client: ApiClient, who: User, file: Buffer | string, name: string, dryRun = false) {
  return client
    .post(`/api/admin/users/import?dryRun=${dryRun}`)
    .file('file', Buffer.isBuffer(file) ? file : Buffer.from(file), { filename: name })
    .loginAs(who)
}

/**
 * How far the process's RSS rose above its level at the start while `work` ran: sampled every
 * 5 ms, and the kernel's peak (getrusage) when `work` set a new one (a peak between samples).
 */
async function rssGrowth<T>(work: () => Promise<T>) {
  const before = process.memoryUsage().rss
  const kernelBefore = process.resourceUsage().maxRSS * 1024
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
  try {
    const result = await work()
    peak = Math.max(peak, process.memoryUsage().rss)
    const kernelPeak = process.resourceUsage().maxRSS * 1024
    if (kernelPeak > kernelBefore) peak = Math.max(peak, kernelPeak)
    return { result, growthMb: (peak - before) / MB }
  } finally {
    clearInterval(sampler)
  }
}

function assertTooLarge(assert: Assert, response: ApiResponse, fragment: string) {
  assert.equal(response.status(), 413, JSON.stringify(response.body()))
  assert.lengthOf(response.body().errors, 1)
  assert.equal(response.body().errors[0].code, 'E_PAYLOAD_TOO_LARGE')
  assert.include(response.body().errors[0].message, fragment)
}

const HEADER_ROW = '<row r="1"><c r="A1" t="inlineStr"><is><t>account</t></is></c></row>'
const BOMB_ROW = '<row><c t="inlineStr"><is><t>bomb</t></is></c></row>'
/** ~520 MB of rows deflated to ~1.5 MB: the sheet of a zip bomb. */
const bombSheet = () => {
  const [head, tail] = sheetXml(HEADER_ROW + '\u0000').split('\u0000')
  return repeatedPart(SHEET, head, BOMB_ROW.repeat(20_000), 500, tail)
}

test.group('User import limits', (group) => {
  isolate(group)

  test('a zip bomb is refused from its central directory: 413, memory flat, nothing written', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions([user.import])
    const bomb = bombSheet()
    const file = workbookWith(workbookParts([['account'], ['x']]), [bomb])
    assert.isAbove(bomb.size, 500_000_000)
    assert.isBelow(file.length, 2 * MB)
    const before = await count()
    const { result, growthMb } = await rssGrowth(() => upload(client, admin, file, 'u.xlsx'))
    assertTooLarge(assert, result, '50 MB')
    assert.isBelow(growthMb, 200)
    assert.equal(await count(), before)

    // Its message in Chinese.
    const zh = await upload(client, admin, file, 'u.xlsx').header('Accept-Language', 'zh-CN')
    assertTooLarge(assert, zh, '解压后不能超过 50 MB')
  })

  test('declared sizes that lie: inflating stops at the declared size, 413, memory flat', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions([user.import])
    const parts = workbookParts([['account'], ['x']])
    const before = await count()
    // The rows of the bomb, declared as 64 KB.
    const rows = workbookWith(parts, [{ ...bombSheet(), declaredSize: 64 * 1024 }])
    const lying = await rssGrowth(() => upload(client, admin, rows, 'u.xlsx'))
    assertTooLarge(assert, lying.result, '50 MB')
    assert.isBelow(lying.growthMb, 200)
    // ~520 MB of whitespace (valid between rows, never kept) declared as 8 MB: 8 MB are
    // inflated and parsed as they stream, then the real byte count passes the declared one.
    const [head, tail] = sheetXml(HEADER_ROW + '\u0000').split('\u0000')
    const blank = repeatedPart(SHEET, head, ' '.repeat(MB), 520, tail)
    const spaces = workbookWith(parts, [{ ...blank, declaredSize: 8 * MB }])
    assert.isBelow(spaces.length, 2 * MB)
    const streamed = await rssGrowth(() => upload(client, admin, spaces, 'u.xlsx'))
    assertTooLarge(assert, streamed.result, '50 MB')
    assert.isBelow(streamed.growthMb, 200)
    assert.equal(await count(), before)
  })

  test('XML that would grow the parser: deep nesting, endless attributes, entities: 422', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions([user.import])
    const parts = workbookParts([['account'], ['okay1']])
    const before = await count()
    // sax keeps every open element and an element's attributes: 50 MB of either would take
    // gigabytes, so well-formed XML is refused past 64 levels or 256 attributes.
    const refused = async (sheetData: string) => {
      const response = await upload(
        client,
        admin,
        workbookWith(parts, [part(SHEET, sheetXml(sheetData))]),
        'u.xlsx'
      )
      assertValidationError(assert, response, ['file'])
      assert.include(response.body().errors[0].message, 'not a readable XLSX')
    }
    const okay = `${HEADER_ROW}<row r="2"><c r="A2" t="inlineStr"><is><t>okay1</t></is></c></row>`
    await refused(okay + '<x>'.repeat(100) + '</x>'.repeat(100))
    const attributes = Array.from({ length: 300 }, (_, i) => `a${i}=""`).join(' ')
    await refused(`${okay}<row r="3" ${attributes}/>`)
    // Entities of a DTD are not expanded (a billion laughs): only XML's own five.
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
      `<worksheet><sheetData>${HEADER_ROW}<row r="2"><c r="A2" t="inlineStr"><is><t>&b;</t></is></c></row></sheetData></worksheet>`
    const entity = await upload(client, admin, workbookWith(parts, [part(SHEET, laughs)]), 'u.xlsx')
    assertValidationError(assert, entity, ['file'])
    assert.equal(await count(), before)
    // Within the bounds, the same shapes read.
    const within = `${okay}${'<x>'.repeat(10)}${'</x>'.repeat(10)}<row r="3" a="1" b="2"/>`
    const read = await upload(
      client,
      admin,
      workbookWith(parts, [part(SHEET, sheetXml(within))]),
      'u.xlsx',
      true
    )
    read.assertStatus(200)
    assert.equal(read.body().data.rows, 1)
  })

  test('the central directory: at most 1,000 entries, 100:1 per large entry, 50 MB in all', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions([user.import])
    const parts = workbookParts([['account'], ['okay1']])
    const before = await count()

    const many = workbookWith(
      parts,
      Array.from({ length: 1000 }, (_, i) => part(`xl/media/p${i}.xml`, '<a/>'))
    )
    assertTooLarge(assert, await upload(client, admin, many, 'u.xlsx'), '1000 parts')

    // 40 MB of one byte deflate about 1000 to 1.
    const dense = repeatedPart('xl/media/dense.xml', '<a>', 'a'.repeat(MB), 40, '</a>')
    const ratio = await upload(client, admin, workbookWith(parts, [dense]), 'u.xlsx')
    assertTooLarge(assert, ratio, '100 to 1')

    // Two entries of 26 MB each (declared), each within the ratio: 52 MB in all.
    const noise = (name: string) => ({
      ...part(name, randomBytes(300 * 1024)),
      declaredSize: 26 * MB,
    })
    const sum = workbookWith(parts, [noise('xl/media/a.bin'), noise('xl/media/b.bin')])
    assertTooLarge(assert, await upload(client, admin, sum, 'u.xlsx'), '50 MB')
    assert.equal(await count(), before)

    // The same workbook without them reads.
    ;(await upload(client, admin, workbookWith(parts, []), 'u.xlsx', true)).assertStatus(200)

    // A file over 5 MB: 413 before anything is read.
    const big = 'account\r\n' + 'a'.repeat(5 * MB)
    assertTooLarge(assert, await upload(client, admin, big, 'u.csv'), '5 MB')
  })

  test('rows: 10,000 read (sheet row numbers, shared strings), 10,001 refused while reading', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions([user.import])
    const rows = (n: number) => [
      ['account', 'nickname'],
      ...Array.from({ length: n }, (_, i) => [`row${i}x`, `Row ${i}`]),
    ]
    const full = await upload(
      client,
      admin,
      xlsx(rows(10_000), { sharedStrings: true }),
      'u.xlsx',
      true
    )
    full.assertStatus(200)
    assert.equal(full.body().data.rows, 10_000)
    assert.deepEqual(full.body().data.errors, [])

    const over = await upload(client, admin, xlsx(rows(10_001)), 'u.xlsx', true)
    assertValidationError(assert, over, ['file'])
    assert.equal(over.body().errors[0].rule, 'maxRows')

    // Shared strings with runs and reading hints (left out), a number cell, a gap between rows:
    // rows are numbered as the sheet numbers them.
    const dept = await Dept.root()
    const parts = workbookParts([['account']])
    parts['xl/sharedStrings.xml'] =
      '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      '<si><t>account</t></si><si><t>nickname</t></si><si><t>deptId</t></si>' +
      '<si><r><t>Ja</t></r><r><rPr><b/></rPr><t>ne</t></r><rPh sb="0" eb="2"><t>ジェーン</t></rPh></si>' +
      '<si><t>jane1</t></si><si><t>x</t></si></sst>'
    parts[SHEET] = sheetXml(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>' +
        `<row r="4"><c r="A4" t="s"><v>4</v></c><c r="B4" t="s"><v>3</v></c><c r="C4"><v>${dept.id}</v></c></row>` +
        '<row r="5"><c r="B5" s="1"/></row>' +
        '<row r="7"><c r="A7" t="s"><v>5</v></c></row>'
    )
    const book = workbookWith(parts, [])
    const dry = await upload(client, admin, book, 'u.xlsx', true)
    dry.assertStatus(200)
    assert.equal(dry.body().data.rows, 2)
    assert.deepEqual(
      dry.body().data.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
      [[7, 'account']]
    )
    parts[SHEET] = parts[SHEET].replace(/<row r="7">.*?<\/row>/, '')
    ;(await upload(client, admin, workbookWith(parts, []), 'u.xlsx')).assertStatus(200)
    const jane = await db.from('users').where('account', 'jane1').first()
    assert.equal(jane.nickname, 'Jane')
    assert.equal(Number(jane.dept_id), dept.id)
  })

  test('a cell over 32 KB: 422 naming its row and column, whether inline, shared or CSV', async ({
    client,
    assert,
  }) => {
    const { user: admin } = await userWithPermissions([user.import])
    const before = await count()
    const long = 'n'.repeat(32 * 1024 + 1)
    const expect = async (response: ApiResponse, where: string) => {
      assertValidationError(assert, response, ['file'])
      assert.equal(response.body().errors[0].rule, 'maxCellSize')
      assert.include(response.body().errors[0].message, where)
    }
    const rows = [
      ['account', 'nickname'],
      ['okay1', 'Fine'],
      ['okay2', long],
    ]
    await expect(await upload(client, admin, xlsx(rows), 'u.xlsx'), 'Row 3, column B')
    await expect(
      await upload(client, admin, xlsx(rows, { sharedStrings: true }), 'u.xlsx'),
      'Row 3, column B'
    )
    const csv = rows.map((cells) => cells.join(',')).join('\r\n')
    await expect(await upload(client, admin, csv, 'u.csv'), 'Row 3, column B')
    // Multi-byte text counts in UTF-8 bytes: 11,000 CJK characters are 33,000 bytes.
    const cjk = `account,nickname\r\nokay3,${'中'.repeat(11_000)}\r\n`
    await expect(await upload(client, admin, cjk, 'u.csv'), 'Row 2, column B')
    const zh = await upload(client, admin, cjk, 'u.csv').header('Accept-Language', 'zh-CN')
    assert.include(zh.body().errors[0].message, '第 2 行 B 列')
    assert.equal(await count(), before)

    // At the limit the file is read; the row's nickname is what is wrong.
    const atLimit = await upload(
      client,
      admin,
      xlsx([rows[0], ['okay4', 'n'.repeat(32 * 1024)]]),
      'u.xlsx',
      true
    )
    atLimit.assertStatus(200)
    assert.deepEqual(
      atLimit.body().data.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
      [[2, 'nickname']]
    )
  })

  test('a refused 10,000-row import answers in under 2 s: no password generated, nothing written', async ({
    client,
    assert,
  }) => {
    const root = await Dept.root()
    const a = await Dept.create({ parentId: root.id, name: 'A', sort: 0, status: 'enabled' })
    const b = await Dept.create({ parentId: root.id, name: 'B', sort: 0, status: 'enabled' })
    const own = await roleWithPermissions([user.import], { dataScope: 'dept' })
    const admin = await UserFactory.merge({ deptId: a.id }).create()
    await admin.related('roles').attach([own.id])
    // Every row within scope but the last: only the checks of every row can find it.
    const csv = [
      'account,nickname,deptId',
      ...Array.from({ length: 9_999 }, (_, i) => `scoped${i},Scoped ${i},${a.id}`),
      `outside1,Outside,${b.id}`,
    ].join('\r\n')
    const before = await count()

    const started = performance.now()
    const cpu = process.cpuUsage()
    const refused = await upload(client, admin, csv, 'u.csv')
    const used = process.cpuUsage(cpu)
    const ms = performance.now() - started
    assertForbidden(assert, refused)
    assert.deepInclude(refused.body().errors[0], { row: 10_001, field: 'deptId' })
    assert.equal(await count(), before)
    // Hashing 10,000 generated passwords costs ~10 s of CPU (argon2 on libuv's threads, which
    // process.cpuUsage counts): the checks alone cost well under a second.
    assert.isBelow(ms, 2000, `answered in ${Math.round(ms)} ms`)
    assert.isBelow((used.user + used.system) / 1000, 2000)
  })
})
