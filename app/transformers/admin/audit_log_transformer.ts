import { BaseTransformer } from '@adonisjs/core/transformers'
import type AuditLog from '#models/audit_log'

/** One audited write as the audit-log page shows it. */
export default class AuditLogTransformer extends BaseTransformer<AuditLog> {
  toObject() {
    return this.pick(this.resource, [
      'id',
      'createdAt',
      'actorId',
      'actor',
      'permission',
      'targetType',
      'targetId',
      'outcome',
      'reason',
      'requestId',
      'ip',
      'changes',
    ])
  }
}
