import vine from '@vinejs/vine'
import { optionalText, pageFields } from '#validators/admin/common'

/** GET /api/admin/sessions: live sessions, optionally of accounts matching `account`. */
export const listSessionsValidator = vine.create({
  ...pageFields,
  account: optionalText(64),
})
