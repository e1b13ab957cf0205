import vine from '@vinejs/vine'
import { DateTime } from 'luxon'
import { ARTICLE_CATEGORIES, ARTICLE_STATUSES } from '#models/article'
import {
  formatRule,
  isHttpsUrl,
  listValidator,
  nullableLines,
  nullableText,
  optionalText,
  UNSAFE_URL_CHARACTERS,
} from '#validators/admin/common'
import { articleSort } from '#resources/articles'
import { line, lines } from '#validators/text'

/**
 * Request shapes of /api/admin/articles. `status`, `publishedAt` and `authorId` are not accepted
 * by create/update: publishing has its own permission and endpoints, and the author is the caller.
 */
export const SLUG_FORMAT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * A path on this site: starts with a single `/` (`//host` would leave the site), no `.` or `..`
 * segment (percent-encoded dots included, browsers resolve them too), no unsafe characters. A
 * query string and fragment may follow.
 */
export function isSitePath(value: string): boolean {
  if (!value.startsWith('/') || value.startsWith('//') || UNSAFE_URL_CHARACTERS.test(value)) {
    return false
  }
  const path = value.split(/[?#]/, 1)[0]
  return path.split('/').every((segment) => !/^(?:\.|%2e)+$/i.test(segment))
}

const coverUrlFormat = formatRule(
  'coverUrl',
  (value) => isHttpsUrl(value) || isSitePath(value),
  'The {{ field }} field must be an https:// URL or a site path starting with a single /'
)

/**
 * Shown by the public site: an `https://` URL or a site path, never `javascript:`, `data:`,
 * `http:` or `//host`. "" and null clear it.
 */
const coverUrl = () => nullableText(500, coverUrlFormat())

const slug = () => line(160).minLength(1).regex(SLUG_FORMAT)

/** Full date and time, optional seconds/fraction, optional offset (none = UTC). */
const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/

/** An ISO 8601 date-time (a value without an offset is read as UTC). */
const isoDateTime = vine.createRule((value, _options, field) => {
  if (
    typeof value !== 'string' ||
    !ISO_DATE_TIME.test(value) ||
    !DateTime.fromISO(value, { zone: 'utc' }).isValid
  ) {
    field.report('The {{ field }} field must be an ISO 8601 date-time', 'isoDateTime', field)
  }
})

export const listArticlesValidator = listValidator(articleSort, {
  keyword: optionalText(100),
  status: vine.enum(ARTICLE_STATUSES).optional(),
  category: vine.enum(ARTICLE_CATEGORIES).optional(),
})

/** The title is one line; summary, content and the internal note may span lines. */
const title = () => line(200).minLength(1)
const summary = () => lines(500)
const content = () => lines(200_000).minLength(1)

export const createArticleValidator = vine.create({
  title: title(),
  slug: slug().optional(),
  summary: summary().optional(),
  content: content(),
  category: vine.enum(ARTICLE_CATEGORIES),
  coverUrl: coverUrl(),
  internalNote: nullableLines(5000),
})

export const updateArticleValidator = vine.create({
  title: title().optional(),
  slug: slug().optional(),
  summary: summary().optional(),
  content: content().optional(),
  category: vine.enum(ARTICLE_CATEGORIES).optional(),
  coverUrl: coverUrl(),
  internalNote: nullableLines(5000),
})

/** An optional ISO 8601 date-time field, turned into a DateTime (UTC without an offset). */
export const dateTimeField = () =>
  line(40)
    .use(isoDateTime())
    .optional()
    .transform((value) => (value ? DateTime.fromISO(value, { zone: 'utc' }) : undefined))

export const publishArticleValidator = vine.create({
  publishedAt: dateTimeField(),
})
