import vine from '@vinejs/vine'

/**
 * Pieces shared by the admin validators. Ids are bounded to the range of a 32-bit serial so an
 * oversized number is a 422 instead of a PostgreSQL "out of range" error (500).
 */
export const MAX_ID = 2_147_483_647
export const MAX_PAGE_SIZE = 100

export const idField = () => vine.number().withoutDecimals().min(1).max(MAX_ID)

/** A set of ids: duplicates are harmless and removed later, the size is bounded. */
export const idListField = (max = 500) => vine.array(idField()).maxLength(max)

export const statusField = () => vine.enum(['enabled', 'disabled'] as const)

/** `pageNum` / `pageSize` of every admin list (defaults applied by the services). */
export const pageFields = {
  pageNum: vine.number().withoutDecimals().min(1).max(100_000).optional(),
  pageSize: vine.number().withoutDecimals().min(1).max(MAX_PAGE_SIZE).optional(),
}

/** Optional free text; an empty string is treated as "not given". */
export const optionalText = (max: number) =>
  vine
    .string()
    .trim()
    .maxLength(max)
    .optional()
    .transform((value) => (value === '' ? undefined : value))

/** Optional nullable text: "" and null both clear the column. */
export const nullableText = (max: number) =>
  vine
    .string()
    .trim()
    .maxLength(max)
    .nullable()
    .optional()
    .transform((value) => (value === '' ? null : value))
