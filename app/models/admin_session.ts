import { BaseModel, column } from '@adonisjs/lucid/orm'
import { epochOrNull, ownedByUser } from '#models/mixins/owned_by_user'

/** A login's session (app/auth/sessions.ts writes them). Times are epoch milliseconds. */
export default class AdminSession extends ownedByUser(BaseModel) {
  static table = 'admin_sessions'
  static selfAssignPrimaryKey = true

  @column({ isPrimary: true })
  declare id: string

  @column()
  declare ip: string

  @column()
  declare userAgent: string

  @column({ consume: Number })
  declare lastSeenAt: number

  @column({ consume: Number })
  declare expiresAt: number

  @column({ consume: epochOrNull })
  declare endedAt: number | null

  @column()
  declare endReason: string | null
}
