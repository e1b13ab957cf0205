import { parse } from 'csv-parse/sync'
import { errors as vineErrors } from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { FieldError, payloadTooLarge, type RowError, RowErrors } from '#exceptions/api_exception'
import { messageOf } from '#exceptions/messages'
import UserPolicy from '#policies/user_policy'
import { REFUSED, deptsShown } from '#policies/grant_rule'
import { type RoleGrant, deptParents, roleGrants } from '#policies/holdings'
import { generateCredentials, importAccounts } from '#services/admin_account_service'
import { type Actor } from '#services/admin/common'
import { audit } from '#services/admin/writes'
import { FORMULA_START, csvCell } from '#services/admin/list_export'
import { importUserRowValidator } from '#validators/admin/user'
import { userWrites } from '#resources/users'
import { type SheetLimits, type SheetRow, columnName, readFirstSheet } from '#core/xlsx_reader'
import { SheetLimitError, SheetUnreadableError } from '#exceptions/internal_errors'

/**
 * The user import (POST /api/admin/users/import, docs/admin-modules.md, "User import"): a CSV or
 * XLSX file within LIMITS (below), one account per row. Each row is what
 * POST /api/admin/users takes (roles by code, no password) and passes the same rules: the row's
 * shape (the create validator's fields), the roles and department exist, the account is new
 * (case-insensitive, also within the file), and UserPolicy.create, the grant rule and data scope
 * of a single create, for the caller. Every problem of every row is reported
 * `{ row, field, code, message }` (row 1 is the header). Without `dryRun=false` nothing is
 * written; with it, any problem refuses the whole file (403 when the grant rule or scope refused
 * a row, else 422), and otherwise every account is created in one transaction with one audit
 * row. Passwords are generated (app/services/admin_account_service.ts, generateCredentials),
 * returned once in the answer, and must be changed at the first sign-in.
 *
 * What a file may cost is bounded before it grows: bytes (413), the XLSX's inflated size,
 * compression ratio and entries (413, checked on the ZIP's central directory before inflating
 * and again while inflating: app/core/xlsx_reader.ts), rows and cell sizes (422, reading
 * stops there). Every row is checked, grant rule and data scope included, before one password is
 * generated or hashed: a refused file costs its parse and its checks, no argon2.
 */
export const MAX_ROWS = 10_000
export const MAX_BYTES = 5 * 1024 * 1024
export const LIMITS: SheetLimits = {
  maxEntries: 1000,
  maxInflated: 50 * 1024 * 1024,
  maxRatio: 100,
  maxRows: MAX_ROWS + 1, // and the header
  maxCellBytes: 32 * 1024,
  maxColumns: 64,
}
/** The header names: the importable fields of `userWrites` (app/resources/users.ts), in order. */
const COLUMNS = userWrites.columns

type Row = Infer<typeof importUserRowValidator> & { row: number }

export type ImportResult = {
  dryRun: boolean
  rows: number
  errors: RowError[]
  created: { id: number; account: string; initialPassword: string }[]
}

/** The template: the header and one example row. */
export function importTemplate() {
  const line = (cells: string[]) => cells.map(csvCell).join(',') + '\r\n'
  return '\uFEFF' + line(COLUMNS) + line(userWrites.example)
}

export async function importUsers(
  actor: Actor,
  file: Buffer,
  dryRun: boolean
): Promise<ImportResult> {
  if (file.length > MAX_BYTES)
    throw payloadTooLarge('importTooLarge', { mb: MAX_BYTES / 1024 / 1024 })
  const [header, ...lines] = await readCells(file)
  const { rows, errors } = await shapeRows(header, lines)
  errors.push(...(await db.transaction((trx) => checkRows(trx, actor, rows))))
  errors.sort((a, b) => a.row - b.row)
  if (dryRun) return { dryRun, rows: lines.length, errors, created: [] }
  if (errors.length) throw new RowErrors(errors)
  // Only now, every row allowed: the passwords (argon2, seconds for 10,000), outside any
  // transaction. The checks run again in the writing transaction: what the caller may grant
  // and see, and which accounts exist, may have changed meanwhile.
  const credentials = await generateCredentials(rows.length)
  return db.transaction(async (trx) => {
    const changed = await checkRows(trx, actor, rows)
    if (changed.length) throw new RowErrors(changed)
    const roleIds = await roleIdsByCode(trx, rows)
    const users = await importAccounts(
      trx,
      rows.map(({ row, roles, ...fields }) => ({
        ...fields,
        roleIds: roles.map((code) => roleIds.get(code)!),
      })),
      credentials
    )
    await audit(trx, actor, {
      targetType: 'user',
      targetId: users[0]?.id ?? null,
      changes: { imported: [0, users.length], ids: [null, [users[0]?.id, users.at(-1)?.id]] },
    })
    return {
      dryRun,
      rows: lines.length,
      errors,
      created: users.map((user, i) => ({
        id: user.id,
        account: user.account,
        initialPassword: credentials[i].password,
      })),
    }
  })
}

/** A refused row whose message is the catalog's `key`: English here, the caller's when rendered. */
const rowError = (
  row: number,
  field: string,
  code: string,
  key: string,
  data?: Record<string, string | number>
): RowError => ({ row, field, code, message: messageOf(key, data), key, data })

const malformed = (key: string, data?: Record<string, string>) =>
  new FieldError('file', key, 'format', data)

/**
 * The non-empty rows of the file as trimmed text, the header first: an XLSX (a ZIP: sniffed from
 * its bytes, whatever the name says) read by app/core/xlsx_reader.ts within LIMITS, where a
 * formula cell gives its computed value, never the formula; else UTF-8 CSV (BOM allowed) read by
 * csv-parse, which stops after the rows allowed. Anything else, a truncated or damaged file,
 * ragged rows: 422 on `file`, nothing read further.
 */
async function readCells(file: Buffer): Promise<SheetRow[]> {
  let rows: SheetRow[]
  if (file.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) {
    try {
      rows = await readFirstSheet(file, LIMITS)
    } catch (error) {
      if (error instanceof SheetUnreadableError) throw malformed('importNotXlsx')
      if (!(error instanceof SheetLimitError)) throw error
      switch (error.limit) {
        case 'rows':
          throw maxRows()
        case 'cell':
          throw cellTooLarge(error.data)
        case 'entries':
          throw payloadTooLarge('importEntries', error.data)
        case 'ratio':
          throw payloadTooLarge('importRatio', error.data)
        case 'inflated':
          throw payloadTooLarge('importUnpacked', error.data)
      }
    }
  } else {
    rows = readCsv(file)
  }
  if (rows.length < 2) throw malformed('importNoRows')
  if (rows.length > LIMITS.maxRows) throw maxRows()
  return rows
}

function readCsv(file: Buffer): SheetRow[] {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file)
  } catch {
    throw malformed('importType')
  }
  if (text.includes('\0')) throw malformed('importType')
  type Parsed = { record: string[]; info: { records: number; empty_lines: number } }
  let table: Parsed[]
  try {
    table = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      info: true,
      // Enough records for the rows allowed and some empty ones: nothing after is parsed.
      to: 2 * LIMITS.maxRows,
    }) as unknown as Parsed[]
  } catch (error) {
    throw malformed('importCsv', { reason: (error as Error).message })
  }
  const rows: SheetRow[] = []
  for (const { record, info } of table) {
    // The row a spreadsheet shows: empty lines count.
    const number = info.records + info.empty_lines
    const cells = record.map((cell, column) => {
      if (Buffer.byteLength(cell) > LIMITS.maxCellBytes) {
        throw cellTooLarge({
          row: number,
          column: columnName(column),
          kb: LIMITS.maxCellBytes / 1024,
        })
      }
      return cell.trim()
    })
    if (cells.some((cell) => cell !== '')) rows.push({ number, cells })
  }
  if (table.length === 2 * LIMITS.maxRows && rows.length <= LIMITS.maxRows) {
    // Stopped early on a file of mostly empty rows: too long all the same.
    throw maxRows()
  }
  return rows
}

const maxRows = () => new FieldError('file', 'importMaxRows', 'maxRows', { max: MAX_ROWS })
const cellTooLarge = (data: Record<string, string | number>) =>
  new FieldError('file', 'importCellSize', 'maxCellSize', data)

/** Each row's cells against the header and the row validator: the rows, and what is wrong. */
async function shapeRows(header: SheetRow, lines: SheetRow[]) {
  const columns = header.cells
  const unknown = columns.filter((name) => !COLUMNS.includes(name))
  if (unknown.length || !columns.includes('account')) {
    throw malformed('importHeader', { columns: COLUMNS.join(', ') })
  }
  const errors: RowError[] = []
  const rows: Row[] = []
  const seen = new Map<string, number>()
  for (const line of lines) {
    const number = line.number
    const raw: Record<string, string> = {}
    columns.forEach((name, j) => (raw[name] = line.cells[j] ?? ''))
    const formulas = columns.filter((name) => FORMULA_START.test(raw[name] ?? ''))
    for (const field of formulas) {
      errors.push(rowError(number, field, 'E_VALIDATION_ERROR', 'importFormula'))
    }
    if (formulas.length) continue
    try {
      const fields = await importUserRowValidator.validate(userWrites.cells(raw))
      const row = { row: number, ...fields }
      const key = row.account.toLowerCase()
      if (seen.has(key)) {
        errors.push(
          rowError(number, 'account', 'E_CONFLICT', 'importDuplicate', { row: seen.get(key)! })
        )
      } else seen.set(key, number)
      rows.push(row)
    } catch (error) {
      if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
      type VineEntry = { field: string; message: string; rule: string; meta?: object }
      for (const entry of error.messages as VineEntry[]) {
        errors.push({
          row: number,
          field: entry.field.split('.')[0],
          code: 'E_VALIDATION_ERROR',
          message: entry.message,
          rule: entry.rule,
          meta: entry.meta as Record<string, unknown> | undefined,
        })
      }
    }
  }
  return { rows, errors }
}

/**
 * What needs the database, read in the import's transaction: existing accounts, roles and
 * departments, and UserPolicy.create for each row (decided once per distinct roles and
 * department).
 */
async function checkRows(trx: TransactionClientContract, actor: Actor, rows: Row[]) {
  const errors: RowError[] = []
  const existing = new Set<string>()
  const accounts = rows.map((row) => row.account.toLowerCase())
  for (let i = 0; i < accounts.length; i += 500) {
    const chunk = accounts.slice(i, i + 500)
    const found = await trx.from('users').whereIn(db.raw('lower(account)'), chunk).select('account')
    for (const { account } of found) existing.add(String(account).toLowerCase())
  }
  const roleIds = await roleIdsByCode(trx, rows)
  const held = await roleGrants(trx, [...roleIds.values()])
  const grants = new Map<number, RoleGrant>(held.map((grant) => [grant.id, grant]))
  const parents = await deptParents(trx)
  type Refused = { identifier: string; data?: Record<string, unknown>; message: string }
  const decisions = new Map<string, Refused | true>()
  for (const row of rows) {
    const fail = (field: string, code: string, key: string, data?: Record<string, string>) =>
      errors.push(rowError(row.row, field, code, key, data))
    if (existing.has(row.account.toLowerCase())) {
      fail('account', 'E_CONFLICT', 'importAccountExists')
    }
    const unknown = row.roles.filter((code) => !roleIds.has(code))
    if (unknown.length)
      fail('roles', 'E_VALIDATION_ERROR', 'importUnknownRoles', { codes: unknown.join(', ') })
    const deptId = row.deptId ?? null
    if (deptId !== null && !parents.has(deptId)) {
      fail('deptId', 'E_VALIDATION_ERROR', 'importDeptMissing')
    }
    if (unknown.length || (deptId !== null && !parents.has(deptId))) continue
    const ids = [...new Set(row.roles.map((code) => roleIds.get(code)!))].sort((a, b) => a - b)
    const key = `${ids.join(',')}/${deptId}`
    let decision = decisions.get(key)
    if (decision === undefined) {
      const roles = ids.map((id) => grants.get(id)!)
      const shows = deptsShown(roles, [deptId], parents)
      const response = await actor.bouncer
        .with(UserPolicy)
        .execute('create', roles, { deptId, shows })
      decision = response.authorized
        ? true
        : {
            identifier: response.translation?.identifier ?? '',
            data: response.translation?.data,
            message: response.message ?? '',
          }
      decisions.set(key, decision)
    }
    if (decision !== true) {
      const field = decision.identifier === `errors.refused.${REFUSED.dept}` ? 'deptId' : 'roles'
      errors.push({
        row: row.row,
        field,
        code: 'E_FORBIDDEN',
        message: decision.message,
        refusal: { identifier: decision.identifier, data: decision.data },
      })
    }
  }
  return errors
}

async function roleIdsByCode(trx: TransactionClientContract, rows: Row[]) {
  const codes = [...new Set(rows.flatMap((row) => row.roles))]
  const found: { id: number; code: string }[] = codes.length
    ? await trx.from('roles').whereIn('code', codes).select('id', 'code')
    : []
  return new Map(found.map((role) => [role.code, Number(role.id)]))
}
