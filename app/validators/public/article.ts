import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { ARTICLE_CATEGORIES } from '#models/article'
import { line, token } from '#validators/text'

/**
 * Request shape of the public article endpoints. Only the shape is checked here; what may be shown
 * (published, already due) is decided by the query of the public service.
 */

export const PAGE_SIZE_DEFAULT = 10
export const PAGE_SIZE_MAX = 50
/**
 * The deepest row an anonymous caller may page to (pageNum * pageSize). It bounds OFFSET, and it is
 * why the list can stop counting after this many matches (see ArticleQueryService).
 */
export const MAX_PAGE_WINDOW = 10_000
export const KEYWORD_MAX_LENGTH = 100
/**
 * One character is a keyword: a Chinese word is often one or two. On PostgreSQL a trigram index
 * serves 3 characters and more, the article's characters and pairs (search_grams) shorter ones
 * (docs/public-modules.md, "Keyword search").
 */
export const KEYWORD_MIN_LENGTH = 1
/** The articles.slug column is varchar(160): a longer slug cannot exist. */
export const SLUG_MAX_LENGTH = 160
export const ARTICLE_SORTS = ['newest', 'oldest'] as const
export type ArticleSort = (typeof ARTICLE_SORTS)[number]

/** `?keyword=&category=` as sent by an empty form field means "no filter". */
const blankToUndefined = (value: unknown) => (value === '' ? undefined : value)

/**
 * Query-string integers: plain decimal digits only. Number() would also take "1e3", "0x10" or
 * "Infinity"; those become NaN so VineJS reports "must be a number" instead of guessing.
 */
const INTEGER_TEXT = /^\s*[+-]?\d+(\.\d+)?\s*$/
const decimalNumber = (value: unknown) => {
  if (value === '') return undefined
  if (typeof value === 'string' && !INTEGER_TEXT.test(value)) return Number.NaN
  return value
}

/** The pageSize the request will use, or undefined when it is invalid (it reports its own error). */
function effectivePageSize(raw: unknown): number | undefined {
  const value = decimalNumber(raw)
  if (value === undefined || value === null) return PAGE_SIZE_DEFAULT
  const size = Number(value)
  if (!Number.isInteger(size) || size < 1 || size > PAGE_SIZE_MAX) return undefined
  return size
}

/** pageNum * pageSize <= MAX_PAGE_WINDOW, reported once, on pageNum. */
const withinPageWindow = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (!field.isValid) return
  const pageSize = effectivePageSize(field.parent?.pageSize)
  if (pageSize === undefined) return
  if ((value as number) * pageSize > MAX_PAGE_WINDOW) {
    field.report(`pageNum * pageSize must not exceed ${MAX_PAGE_WINDOW}`, 'pageWindow', field, {
      max: MAX_PAGE_WINDOW,
    })
  }
})

/**
 * GET /api/articles. Repeated parameters arrive as arrays and fail their scalar type, so
 * `?pageSize=1&pageSize=2` is a 422 like any other malformed value. Unknown parameters are ignored.
 */
export const listArticlesValidator = vine.create({
  pageNum: vine
    .number()
    .parse(decimalNumber)
    .withoutDecimals()
    .min(1)
    .use(withinPageWindow())
    .optional(),
  pageSize: vine
    .number()
    .parse(decimalNumber)
    .withoutDecimals()
    .range([1, PAGE_SIZE_MAX])
    .optional(),
  keyword: line(KEYWORD_MAX_LENGTH)
    .minLength(KEYWORD_MIN_LENGTH)
    // Blank or whitespace-only: no filter.
    .parse((value: unknown) => (typeof value === 'string' && !value.trim() ? undefined : value))
    .optional(),
  category: vine.enum(ARTICLE_CATEGORIES).parse(blankToUndefined).optional(),
  sort: vine.enum(ARTICLE_SORTS).parse(blankToUndefined).optional(),
})

/**
 * GET /api/articles/:slug. A slug longer than the column or carrying control characters cannot
 * exist; rejecting it here keeps such input away from the database driver (PostgreSQL refuses
 * NUL bytes with an error, which would otherwise surface as a 500).
 */
export const showArticleValidator = vine.create({
  slug: token(SLUG_MAX_LENGTH).minLength(1),
})
