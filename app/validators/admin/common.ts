import vine from '@vinejs/vine'
import type { VineString } from '@vinejs/vine'
import type { SchemaTypes, Validation } from '@vinejs/vine/types'
import type { Sortable } from '#openapi/schema'
import { line, lines } from '#validators/text'

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

/** A record's place among its siblings (`sort`: roles, departments, menus, dictionary items). */
export const sortOrder = () => vine.number().withoutDecimals().min(0).max(1_000_000)

/** `pageNum` / `pageSize` of every admin list (defaults applied by the services). */
export const pageFields = {
  pageNum: vine.number().withoutDecimals().min(1).max(100_000).optional(),
  pageSize: vine.number().withoutDecimals().min(1).max(MAX_PAGE_SIZE).optional(),
}

/**
 * `sort` of a list: a value of the resource's allow-list (`sortable` beside its shape), else a
 * 422; the document lists the values as the parameter's enum.
 */
export const sortField = (sortable: Sortable) => vine.enum(sortable.values).optional()

/**
 * The query validator of an admin list: the page, the list's own `filters`, and `sort` among the
 * resource's `sortable` fields.
 */
export const listValidator = <Filters extends Record<string, SchemaTypes>>(
  sortable: Sortable,
  filters: Filters
) => vine.create({ ...pageFields, ...filters, sort: sortField(sortable) })

/** `format` of an export (GET .../export, app/services/admin/list_export.ts). */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const
export const exportFields = { format: vine.enum(EXPORT_FORMATS) }

/** Optional free text (one line); an empty string is treated as "not given". */
export const optionalText = (max: number) =>
  line(max)
    .optional()
    .transform((value) => (value === '' ? undefined : value))

/**
 * Optional nullable text (one line): "" and null both clear the column; `rule` checks a non-empty
 * value. Left out, it stays undefined (the transform sees given values only), as its type says.
 */
export const nullableText = (max: number, rule?: Validation<any>) => nullable(line(max), rule)

/** As nullableText, for text of several lines (remarks, notes): app/validators/text.ts. */
export const nullableLines = (max: number) => nullable(lines(max))

function nullable(text: VineString, rule?: Validation<any>) {
  if (rule) text.use(rule)
  return text
    .nullable()
    .optional()
    .transform((value): string | null | undefined => (value === '' ? null : value))
}

/*
 * Display fields (menu path/component/icon/name, article cover) end up in every administrator's
 * sidebar or on the public site, so they are held to a narrow format instead of trusting whoever
 * renders them to escape.
 */

/** Never in a stored URL or route: whitespace, control characters, quotes, `<`, `>`, `\`. */
export const UNSAFE_URL_CHARACTERS = /[\s\p{Cc}"'`<>\\]/u

/**
 * An absolute `https://` URL: written with the `https://` prefix, parsed by `new URL` with the
 * `https:` protocol and a host, no credentials (`https://trusted@evil.example`), no unsafe
 * characters.
 */
export function isHttpsUrl(value: string): boolean {
  if (UNSAFE_URL_CHARACTERS.test(value) || !/^https:\/\/[^/]/i.test(value)) return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  return (
    url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === ''
  )
}

/**
 * Plain text shown as a label: no `<`, `>`, `"`, `` ` ``, control characters (newlines, tabs,
 * NUL), line separators or bidi overrides. Other unicode, `&` and `'` are fine.
 */
const UNSAFE_TEXT = /[<>"`\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u

export function isPlainText(value: string): boolean {
  return !UNSAFE_TEXT.test(value)
}

/**
 * A VineJS rule reporting `message` under `name` when `accepts` refuses the (trimmed) string.
 * An empty string is left to the field's own rules (nullable fields read it as "cleared",
 * required ones have a minLength).
 */
export function formatRule(name: string, accepts: (value: string) => boolean, message: string) {
  return vine.createRule(
    (value, _options, field) => {
      if (typeof value !== 'string' || value === '') return
      if (!accepts(value)) field.report(message, name, field)
    },
    { name }
  )
}

/** A label shown as text (menu names): see isPlainText. */
export const plainText = formatRule(
  'plainText',
  isPlainText,
  'The {{ field }} field must be plain text without <, >, ", ` or control characters'
)
