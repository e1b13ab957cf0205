import { Readable } from 'node:stream'
import { DateTime } from 'luxon'
import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import type { LucidModel, ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import { exportTooLarge } from '#exceptions/api_exception'
import { actorOf } from '#services/admin/common'
import { audit } from '#services/admin/writes'
import { targetTypeOf } from '#services/audit_log'
import type { CsvColumns } from '#resources/csv_columns'
import type { Operation } from '#openapi/contract'
import { s } from '#openapi/schema'
import type { EXPORT_FORMATS } from '#validators/admin/common'
import { MAX_CELL_CHARS, xlsxChunks, type XlsxCell } from '#core/xlsx_writer'

/**
 * Exports of admin lists (GET /api/admin/<list>/export?format=csv|xlsx, docs/architecture.md,
 * "Lists and exports"). The rows are the list's: its query (filters, data scope, order) is the
 * export's, only the paging differs. Both formats take their columns from the resource's
 * declaration (app/resources/csv_columns.ts) and their cell text from `exportText`.
 * - At most MAX_EXPORT_ROWS rows: filters matching more are refused (422 E_EXPORT_TOO_LARGE)
 *   before anything is sent, so a file is never silently cut.
 * - Streamed: the matching ids are read first, in order (what matched when the export began, at
 *   most 100k integers), then the rows in batches of BATCH_SIZE by primary key, with the list
 *   query's preloads, so the file is never held in memory and rows inserted meanwhile do not
 *   shift the batches. (Re-running the filters per batch made the planner walk the filter's
 *   index for every batch: 100k rows took minutes on SQLite.)
 * - Every export writes an audit row (who, which filters, how many rows) before the first byte.
 * - CSV: UTF-8 with a BOM (Excel otherwise reads it as the local code page), CRLF lines (RFC 4180).
 * - XLSX: one sheet, streamed through app/core/xlsx_writer.ts.
 */
export const MAX_EXPORT_ROWS = 100_000
const BATCH_SIZE = 1000
const BOM = '\uFEFF'

type ExportFormat = (typeof EXPORT_FORMATS)[number]

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

/**
 * Cells a spreadsheet would run as a formula (OWASP "CSV injection"): starting with = + - @,
 * a tab or a carriage return, or their full-width forms. Both formats prefix them with '
 * (read as text), so a file saved from the XLSX as CSV is as safe as the CSV.
 */
export const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/

/** A cell's text in an export: formula-looking text prefixed with '. */
export function exportText(value: unknown): string {
  const text = cellText(value)
  return FORMULA_START.test(text) ? `'${text}` : text
}

export function csvCell(value: unknown): string {
  const text = exportText(value)
  // A neutralised cell is quoted too (its text starts with the added quote).
  return text !== cellText(value) || /[",\r\n]/.test(text)
    ? `"${text.replaceAll('"', '""')}"`
    : text
}

/** An XLSX cell: a number or boolean as such when its text is the CSV's, else that text. */
function xlsxCell(value: unknown): XlsxCell {
  if (typeof value === 'boolean') return value
  if (typeof value === 'number' && Number.isFinite(value) && !FORMULA_START.test(String(value))) {
    return value
  }
  return exportText(value)
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (DateTime.isDateTime(value)) return value.toUTC().toISO() ?? ''
  if (value instanceof Date) return value.toISOString()
  return JSON.stringify(value)
}

const csvLine = (cells: unknown[]) => cells.map(csvCell).join(',') + '\r\n'

type Export<Row> = {
  /** File name stem: `<name>-<UTC timestamp>.<format>`; also the XLSX sheet's name. */
  name: string
  /** The list's own query (its service builds it for both). */
  query: ModelQueryBuilderContract<LucidModel, Row>
  /** The validated filters, as the audit row records them; `format` picks the file type. */
  filters: Record<string, unknown> & { format: ExportFormat }
  columns: CsvColumns
  /** The row as the list shows it (the resource's transformer). */
  toObject: (row: Row) => Record<string, unknown>
}

/** Answers an export: refused past the bound, audited, then streamed. */
export async function sendExport<Row>(ctx: HttpContext, spec: Export<Row>) {
  const table = spec.query.model.table
  const matched = await spec.query
    .clone()
    .select(`${table}.id`)
    .limit(MAX_EXPORT_ROWS + 1)
    .pojo<{ id: number | string }>()
  if (matched.length > MAX_EXPORT_ROWS) throw exportTooLarge(MAX_EXPORT_ROWS)
  // bigint ids (the logs) come back from node-postgres as strings.
  const ids = matched.map((row) => Number(row.id))

  const format = spec.filters.format
  const stamp = DateTime.utc().toFormat("yyyyMMdd'T'HHmmss'Z'")
  ctx.response.header('Content-Type', CONTENT_TYPES[format])
  ctx.response.header(
    'Content-Disposition',
    `attachment; filename="${spec.name}-${stamp}.${format}"`
  )
  ctx.response.header('Cache-Control', 'no-store')
  // HEAD (the router answers it with the GET handler): the headers, no rows read, nothing audited.
  if (ctx.request.method() === 'HEAD') return ctx.response.status(200)

  await audit(db.connection(), actorOf(ctx), {
    targetType: targetTypeOf(ctx),
    changes: { filters: [null, spec.filters], rows: [null, ids.length] },
  })

  /** The rows' cells, batch by batch, in the ids' order. */
  async function* batches() {
    for (let start = 0; start < ids.length; start += BATCH_SIZE) {
      const batch = ids.slice(start, start + BATCH_SIZE)
      // The list's query (for its preloads) by primary key; the order is the ids'.
      const rows = await spec.query.clone().clearWhere().clearOrder().whereIn(`${table}.id`, batch)
      const byId = new Map(rows.map((row) => [Number((row as { id: unknown }).id), row]))
      yield batch
        .filter((id) => byId.has(id)) // deleted since the ids were read
        .map((id) => spec.columns.cells(spec.toObject(byId.get(id)!)))
    }
  }

  async function* csv() {
    yield BOM + csvLine(spec.columns.names)
    for await (const rows of batches()) yield rows.map(csvLine).join('')
  }

  async function* xlsx() {
    const cells = async function* () {
      for await (const rows of batches()) yield rows.map((row) => row.map(xlsxCell))
    }
    yield* xlsxChunks(spec.name, spec.columns.names, cells())
  }

  const stream = Readable.from(format === 'xlsx' ? xlsx() : csv())
  stream.on('error', (error) => ctx.logger.error({ err: error, format }, 'Export failed midway'))
  return ctx.response.stream(stream)
}

/** The OpenAPI declaration of an export action (`static contract`, app/openapi/contract.ts). */
export function exportOperation(what: string, query: Operation['query']): Operation {
  return {
    summary: `Export ${what} as CSV or XLSX (the list's filters and sort)`,
    description:
      `Streams every row the list's filters match, in the list's order, as an attachment: ` +
      `\`format=csv\` (RFC 4180, CRLF, UTF-8 with a BOM) or \`format=xlsx\` (one sheet), both ` +
      `with a header row of field names and the same cells. More than ` +
      `${MAX_EXPORT_ROWS} matching rows: 422 \`E_EXPORT_TOO_LARGE\` and nothing is sent. Cells ` +
      `starting with = + - @, a tab or a carriage return are prefixed with ' (and quoted in CSV); ` +
      `XLSX cells are cut at ${MAX_CELL_CHARS} characters (Excel's limit). ` +
      `Each export is audited with its filters.`,
    query,
    raw: {
      content: {
        [CONTENT_TYPES.csv.split(';')[0]]: s.string(),
        [CONTENT_TYPES.xlsx]: { type: 'string', contentMediaType: CONTENT_TYPES.xlsx },
      },
    },
  }
}
