import { DateTime } from 'luxon'
import type { ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import LoginLog, { type LoginOutcome } from '#models/login_log'
import { pageOf } from '#services/admin/common'

export type LoginLogFilters = {
  pageNum?: number
  pageSize?: number
  account?: string
  ip?: string
  outcome?: LoginOutcome
  from?: Date
  to?: Date
}

/** The login log, newest first. Written by app/auth/login_log.ts; read-only here. */
export default class LoginLogService {
  async list(filters: LoginLogFilters) {
    const { pageNum, pageSize } = pageOf(filters)
    const query = LoginLog.query()
    if (filters.account) query.where('account', filters.account)
    if (filters.ip) query.where('ip', filters.ip)
    if (filters.outcome) query.where('outcome', filters.outcome)
    whereCreatedBetween(query, filters.from, filters.to)
    const page = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .paginate(pageNum, pageSize)
    return { rows: page.all(), total: page.total, pageNum, pageSize }
  }
}

/** created_at in [from, to), bound in the connection's own date format (SQLite compares text). */
export function whereCreatedBetween(
  query: ModelQueryBuilderContract<any, any>,
  from: Date | undefined,
  to: Date | undefined
) {
  const format = query.client.dialect.dateTimeFormat
  if (from) query.where('created_at', '>=', DateTime.fromJSDate(from).toUTC().toFormat(format))
  if (to) query.where('created_at', '<', DateTime.fromJSDate(to).toUTC().toFormat(format))
}
