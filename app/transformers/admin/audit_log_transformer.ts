import { BaseTransformer } from '@adonisjs/core/transformers'
import type AuditLog from '#models/audit_log'
import { named } from '#openapi/schema'
import { auditLog } from '#resources/audit_logs'

/** Response contract (OpenAPI). */
export const auditLogSchema = named('AuditLog', auditLog.schema)

/** One audited write as the audit-log page shows it. */
export default class AuditLogTransformer extends BaseTransformer<AuditLog> {
  toObject() {
    return this.pick(this.resource, auditLog.keys)
  }
}
