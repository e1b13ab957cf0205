import type { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'

export const NOTICE_LEVELS = ['info', 'warning', 'critical'] as const
export type NoticeLevel = (typeof NOTICE_LEVELS)[number]
export const NOTICE_STATUSES = ['draft', 'published'] as const
export type NoticeStatus = (typeof NOTICE_STATUSES)[number]

/**
 * An announcement to administrators. Shown to them when `published` and `publishedAt <= now`;
 * `body` is plain text or a safe subset of Markdown (app/services/notice_markdown.ts).
 */
export default class Notice extends withTimestamps(BaseModel) {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare title: string

  @column()
  declare body: string

  @column()
  declare level: NoticeLevel

  @column()
  declare status: NoticeStatus

  @column.dateTime()
  declare publishedAt: DateTime | null

  @column()
  declare authorId: number | null
}
