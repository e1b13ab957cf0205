import vine from '@vinejs/vine'
import { LOGIN_OUTCOMES } from '#models/login_log'
import { optionalText, pageFields } from '#validators/admin/common'

/**
 * GET /api/admin/login-logs. `account` and `ip` match exactly (an index lookup, not a scan);
 * `from`/`to` are ISO 8601 instants, `from` inclusive and `to` exclusive.
 */
export const listLoginLogsValidator = vine.create({
  ...pageFields,
  account: optionalText(64),
  ip: optionalText(64),
  outcome: vine.enum(LOGIN_OUTCOMES).optional(),
  from: vine.date({ formats: ['iso8601'] }).optional(),
  to: vine.date({ formats: ['iso8601'] }).optional(),
})
