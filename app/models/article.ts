import { DateTime } from 'luxon'
import { BaseModel, belongsTo, column } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

export type ArticleStatus = 'draft' | 'published' | 'archived'
export const ARTICLE_STATUSES: readonly ArticleStatus[] = ['draft', 'published', 'archived']

/** Fixed enumeration of categories; the public list validates its `category` filter against it. */
export const ARTICLE_CATEGORIES = [
  'news',
  'guide',
  'release',
  'announcement',
  'engineering',
] as const
export type ArticleCategory = (typeof ARTICLE_CATEGORIES)[number]

export default class Article extends withTimestamps(BaseModel) {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare slug: string

  @column()
  declare title: string

  @column()
  declare summary: string

  @column()
  declare content: string

  @column()
  declare category: ArticleCategory

  @column()
  declare coverUrl: string | null

  @column()
  declare status: ArticleStatus

  @column.dateTime()
  declare publishedAt: DateTime | null

  @column()
  declare authorId: number | null

  @column()
  declare internalNote: string | null

  @belongsTo(() => User, { foreignKey: 'authorId' })
  declare author: BelongsTo<typeof User>
}
