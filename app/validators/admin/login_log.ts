import vine from '@vinejs/vine'
import { LOGIN_OUTCOMES } from '#models/login_log'
import { exportFields, optionalText, pageFields, sortField } from '#validators/admin/common'
import { loginLogSort } from '#resources/login_logs'

/**
 * GET /api/admin/login-logs and its export. `account` and `ip` match exactly (an index lookup,
 * not a scan); `from`/`to` are ISO 8601 instants, `from` inclusive and `to` exclusive.
 */
const loginLogFilters = {
  account: optionalText(64),
  ip: optionalText(64),
  outcome: vine.enum(LOGIN_OUTCOMES).optional(),
  from: vine.date({ formats: ['iso8601'] }).optional(),
  to: vine.date({ formats: ['iso8601'] }).optional(),
  sort: sortField(loginLogSort),
}

export const listLoginLogsValidator = vine.create({ ...pageFields, ...loginLogFilters })
export const exportLoginLogsValidator = vine.create({ ...exportFields, ...loginLogFilters })
