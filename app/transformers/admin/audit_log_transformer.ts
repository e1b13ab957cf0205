import { BaseTransformer } from '@adonisjs/core/transformers'
import type AuditLog from '#models/audit_log'
import { named, s } from '#openapi/schema'

/** Response contract (OpenAPI). `changes`: field -> [before, after], secrets masked. */
export const auditLogSchema = named(
  'AuditLog',
  s.object({
    id: s.integer(),
    createdAt: s.dateTime(),
    actorId: s.nullable(s.integer()),
    actor: s.string(),
    permission: s.string(),
    targetType: s.string(),
    targetId: s.nullable(s.string()),
    outcome: s.enum(['succeeded', 'refused']),
    reason: s.nullable(s.string()),
    requestId: s.nullable(s.string()),
    ip: s.nullable(s.string()),
    changes: s.nullable(s.record()),
    count: s.integer({
      minimum: 1,
      description: 'attempts this row stands for (refusals: one row per key per minute)',
    }),
  })
)

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
      'count',
    ])
  }
}
