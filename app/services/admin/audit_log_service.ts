import AuditLog from '#models/audit_log'
import { pageOf } from '#services/admin/common'
import { whereCreatedBetween } from '#services/admin/login_log_service'

export type AuditLogFilters = {
  pageNum?: number
  pageSize?: number
  actorId?: number
  permission?: string
  targetType?: string
  targetId?: string
  outcome?: 'succeeded' | 'refused'
  from?: Date
  to?: Date
}

/** The audit log, newest first. Written by the services (app/services/audit_log.ts). */
export default class AuditLogService {
  async list(filters: AuditLogFilters) {
    const { pageNum, pageSize } = pageOf(filters)
    const query = AuditLog.query()
    if (filters.actorId) query.where('actor_id', filters.actorId)
    if (filters.permission) query.where('permission', filters.permission)
    if (filters.targetType) query.where('target_type', filters.targetType)
    if (filters.targetId) query.where('target_id', filters.targetId)
    if (filters.outcome) query.where('outcome', filters.outcome)
    whereCreatedBetween(query, filters.from, filters.to)
    const page = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .paginate(pageNum, pageSize)
    return { rows: page.all(), total: page.total, pageNum, pageSize }
  }
}
