import vine from '@vinejs/vine'
import { NOTICE_LEVELS, NOTICE_STATUSES } from '#models/notice'
import { listValidator, optionalText, plainText } from '#validators/admin/common'
import { dateTimeField } from '#validators/admin/article'
import { noticeSort } from '#resources/notices'
import { line, lines } from '#validators/text'

/**
 * Request shapes of /api/admin/notices. The body is Markdown source (raw HTML in it is shown as
 * text: app/services/notice_markdown.ts). `publishedAt` defaults to now when published.
 */
const title = () => line(128).minLength(1).use(plainText())
const body = () => lines(20_000).minLength(1)

export const listNoticesValidator = listValidator(noticeSort, {
  keyword: optionalText(100),
  status: vine.enum(NOTICE_STATUSES).optional(),
  level: vine.enum(NOTICE_LEVELS).optional(),
})

export const createNoticeValidator = vine.create({
  title: title(),
  body: body(),
  level: vine.enum(NOTICE_LEVELS).optional(),
  status: vine.enum(NOTICE_STATUSES).optional(),
  publishedAt: dateTimeField(),
})

export const updateNoticeValidator = vine.create({
  title: title().optional(),
  body: body().optional(),
  level: vine.enum(NOTICE_LEVELS).optional(),
  status: vine.enum(NOTICE_STATUSES).optional(),
  publishedAt: dateTimeField(),
})
