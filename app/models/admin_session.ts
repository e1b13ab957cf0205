import { BaseModel, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

/** A login's session (app/auth/sessions.ts writes them). Times are epoch milliseconds. */
export default class AdminSession extends BaseModel {
  static table = 'admin_sessions'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare userId: number

  @column()
  declare ip: string

  @column()
  declare userAgent: string

  @column({ consume: Number })
  declare createdAt: number

  @column({ consume: Number })
  declare lastSeenAt: number

  @column({ consume: Number })
  declare expiresAt: number

  @column({ consume: (value) => (value === null ? null : Number(value)) })
  declare endedAt: number | null

  @column()
  declare endReason: string | null

  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>
}
