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

/**
 * CSV exports of admin lists (GET /api/admin/<list>/export?format=csv, docs/architecture.md,
 * "Lists and exports"). The rows are the list's: its query (filters, data scope, order) is the
 * export's, only the paging differs.
 * - At most MAX_EXPORT_ROWS rows: filters matching more are refused (422 E_EXPORT_TOO_LARGE)
 *   before anything is sent, so a file is never silently cut.
 * - Streamed: the matching ids are read first, in order (what matched when the export began, at
 *   most 100k integers), then the rows in batches of BATCH_SIZE by primary key, with the list
 *   query's preloads, so the file is never held in memory and rows inserted meanwhile do not
 *   shift the batches. (Re-running the filters per batch made the planner walk the filter's
 *   index for every batch: 100k rows took minutes on SQLite.)
 * - Every export writes an audit row (who, which filters, how many rows) before the first byte.
 * - UTF-8 with a BOM (Excel otherwise reads it as the local code page), CRLF lines (RFC 4180).
 */
export const MAX_EXPORT_ROWS = 100_000
const BATCH_SIZE = 1000
const BOM = '\uFEFF'

/**
 * Cells a spreadsheet would run as a formula (OWASP "CSV injection"): starting with = + - @,
 * a tab or a carriage return, or their full-width forms. They are prefixed with ' (read as text)
 * and quoted.
 */
export const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/

export function csvCell(value: unknown): string {
  let text = cellText(value)
  const formula = FORMULA_START.test(text)
  if (formula) text = `'${text}`
  return formula || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
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
  /** File name stem: `<name>-<UTC timestamp>.csv`. */
  name: string
  /** The list's own query (its service builds it for both). */
  query: ModelQueryBuilderContract<LucidModel, Row>
  /** The validated filters, as the audit row records them. */
  filters: Record<string, unknown>
  columns: CsvColumns
  /** The row as the list shows it (the resource's transformer). */
  toObject: (row: Row) => Record<string, unknown>
}

/** Answers an export: refused past the bound, audited, then streamed. */
export async function sendCsvExport<Row>(ctx: HttpContext, spec: Export<Row>) {
  const table = spec.query.model.table
  const matched = await spec.query
    .clone()
    .select(`${table}.id`)
    .limit(MAX_EXPORT_ROWS + 1)
    .pojo<{ id: number | string }>()
  if (matched.length > MAX_EXPORT_ROWS) throw exportTooLarge(MAX_EXPORT_ROWS)
  // bigint ids (the logs) come back from node-postgres as strings.
  const ids = matched.map((row) => Number(row.id))

  const stamp = DateTime.utc().toFormat("yyyyMMdd'T'HHmmss'Z'")
  ctx.response.header('Content-Type', 'text/csv; charset=utf-8')
  ctx.response.header('Content-Disposition', `attachment; filename="${spec.name}-${stamp}.csv"`)
  ctx.response.header('Cache-Control', 'no-store')
  // HEAD (the router answers it with the GET handler): the headers, no rows read, nothing audited.
  if (ctx.request.method() === 'HEAD') return ctx.response.status(200)

  await audit(db.connection(), actorOf(ctx), {
    targetType: targetTypeOf(ctx),
    changes: { filters: [null, spec.filters], rows: [null, ids.length] },
  })

  async function* lines() {
    yield BOM + csvLine(spec.columns.names)
    for (let start = 0; start < ids.length; start += BATCH_SIZE) {
      const batch = ids.slice(start, start + BATCH_SIZE)
      // The list's query (for its preloads) by primary key; the order is the ids'.
      const rows = await spec.query.clone().clearWhere().clearOrder().whereIn(`${table}.id`, batch)
      const byId = new Map(rows.map((row) => [Number((row as { id: unknown }).id), row]))
      yield batch
        .filter((id) => byId.has(id)) // deleted since the ids were read
        .map((id) => csvLine(spec.columns.cells(spec.toObject(byId.get(id)!))))
        .join('')
    }
  }

  const stream = Readable.from(lines())
  stream.on('error', (error) => ctx.logger.error({ err: error }, 'CSV export failed midway'))
  return ctx.response.stream(stream)
}

/** The OpenAPI declaration of an export action (`static contract`, app/openapi/contract.ts). */
export function exportOperation(what: string, query: Operation['query']): Operation {
  return {
    summary: `Export ${what} as CSV (the list's filters and sort)`,
    description:
      `Streams every row the list's filters match, in the list's order, as CSV (RFC 4180, CRLF, ` +
      `UTF-8 with a BOM, a header row of field names), as an attachment. More than ` +
      `${MAX_EXPORT_ROWS} matching rows: 422 \`E_EXPORT_TOO_LARGE\` and nothing is sent. Cells ` +
      `starting with = + - @, a tab or a carriage return are prefixed with ' and quoted. ` +
      `Each export is audited with its filters.`,
    query,
    raw: { schema: s.string(), contentType: 'text/csv' },
  }
}
