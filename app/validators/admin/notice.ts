import vine from '@vinejs/vine'
import { NOTICE_LEVELS, NOTICE_STATUSES } from '#models/notice'
import { optionalText, pageFields, sortField } from '#validators/admin/common'
import { noticeSort, noticeWrites } from '#resources/notices'

/** Request shapes of /api/admin/notices; the writable fields: app/resources/notices.ts. */
export const listNoticesValidator = vine.create({
  ...pageFields,
  keyword: optionalText(100),
  status: vine.enum(NOTICE_STATUSES).optional(),
  level: vine.enum(NOTICE_LEVELS).optional(),
  sort: sortField(noticeSort),
})

export const createNoticeValidator = vine.create(noticeWrites.create())

export const updateNoticeValidator = vine.create(noticeWrites.update())
