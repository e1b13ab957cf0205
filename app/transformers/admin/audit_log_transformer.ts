import { BaseTransformer } from '@adonisjs/core/transformers'
import type AuditLog from '#models/audit_log'
import { named, s, shape, sortable } from '#openapi/schema'
import { attempts } from '#transformers/admin/login_log_transformer'
import { csvColumns } from '#transformers/csv_columns'

/** `changes`: field -> [before, after], secrets masked. */
const auditLog = shape({
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
/** Response contract (OpenAPI). */
export const auditLogSchema = named('AuditLog', auditLog.schema)
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

/** One audited write as the audit-log page shows it. */
export default class AuditLogTransformer extends BaseTransformer<AuditLog> {
  toObject() {
    return this.pick(this.resource, auditLog.keys)
  }
}
