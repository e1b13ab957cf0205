import { s, shape, sortable } from '#openapi/schema'
import { csvColumns } from '#resources/csv_columns'
import { attempts } from '#resources/login_logs'

/** `changes`: field -> [before, after], secrets masked. */
export const auditLog = shape({
  id: s.integer(),
  createdAt: s.dateTime(),
  actorId: s.nullable(s.integer()),
  actor: s.string(),
  tokenId: s.nullable(s.integer()),
  permission: s.string(),
  targetType: s.string(),
  targetId: s.nullable(s.string()),
  outcome: s.enum(['succeeded', 'refused']),
  reason: s.nullable(s.string()),
  requestId: s.nullable(s.string()),
  ip: s.nullable(s.string()),
  changes: s.nullable(s.record()),
  count: attempts(),
})
/** What `sort` accepts on the audit log (and its export). */
export const auditLogSort = sortable(auditLog, [
  'id',
  'createdAt',
  'actorId',
  'actor',
  'permission',
  'targetType',
  'outcome',
  'count',
])
/** Columns of the CSV export: every field (`changes` as JSON). */
export const auditLogCsv = csvColumns(auditLog)
