import { BaseTransformer } from '@adonisjs/core/transformers'
import type AuditLog from '#models/audit_log'
import { named, s, shape } from '#openapi/schema'
import { attempts } from '#transformers/admin/login_log_transformer'

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

/** One audited write as the audit-log page shows it. */
export default class AuditLogTransformer extends BaseTransformer<AuditLog> {
  toObject() {
    return this.pick(this.resource, auditLog.keys)
  }
}
