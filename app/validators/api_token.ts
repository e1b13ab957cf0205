import vine from '@vinejs/vine'
import { ALL_PERMISSION_CODES } from '#auth/permissions'
import { MAX_TTL_DAYS } from '#auth/api_tokens'
import { listValidator, optionalText, plainText } from '#validators/admin/common'
import { apiTokenSort } from '#resources/api_tokens'
import { line } from '#validators/text'

/**
 * API tokens: POST /api/auth/tokens (own) and GET /api/admin/tokens (monitors). A code outside
 * the catalogue is a 422; a catalogued code the caller does not hold is the grant rule's 403.
 */
export const createApiTokenValidator = vine.create({
  name: line(64).minLength(1).use(plainText()),
  permissions: vine
    .array(vine.enum(ALL_PERMISSION_CODES))
    .minLength(1)
    .maxLength(ALL_PERMISSION_CODES.length),
  expiresInDays: vine.number().withoutDecimals().min(1).max(MAX_TTL_DAYS),
})

/** GET /api/admin/tokens: every account's tokens, optionally of the account named `account`. */
export const listApiTokensValidator = listValidator(apiTokenSort, {
  account: optionalText(64),
})
