import vine from '@vinejs/vine'
import { optionalText, pageFields, sortField } from '#validators/admin/common'
import { sessionSort } from '#resources/sessions'

/** GET /api/admin/sessions: live sessions, optionally of accounts matching `account`. */
export const listSessionsValidator = vine.create({
  ...pageFields,
  account: optionalText(64),
  sort: sortField(sessionSort),
})
