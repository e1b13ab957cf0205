import vine from '@vinejs/vine'
import { NOTICE_LEVELS, NOTICE_STATUSES } from '#models/notice'
import { listValidator, optionalText } from '#validators/admin/common'
import { noticeSort, noticeWrites } from '#resources/notices'

/** Request shapes of /api/admin/notices; the writable fields: app/resources/notices.ts. */
export const listNoticesValidator = listValidator(noticeSort, {
  keyword: optionalText(100),
  status: vine.enum(NOTICE_STATUSES).optional(),
  level: vine.enum(NOTICE_LEVELS).optional(),
})

export const createNoticeValidator = vine.create(noticeWrites.create())

export const updateNoticeValidator = vine.create(noticeWrites.update())
