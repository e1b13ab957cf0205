import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

/** One audited admin write or account command (app/services/audit_log.ts writes them). */
export default class AuditLog extends BaseModel {
  static table = 'audit_logs'

  // bigint: node-postgres returns it as a string; the API sends a number on both databases.
  @column({ isPrimary: true, consume: Number })
  declare id: number

  @column.dateTime()
  declare createdAt: DateTime

  @column()
  declare actorId: number | null

  @column()
  declare actor: string

  /** The API token the write was made with, or null (a signed-in session, a command). */
  @column()
  declare tokenId: number | null

  @column()
  declare permission: string

  @column()
  declare targetType: string

  @column()
  declare targetId: string | null

  @column()
  declare outcome: 'succeeded' | 'refused'

  @column()
  declare reason: string | null

  @column()
  declare requestId: string | null

  @column()
  declare ip: string | null

  /** Writes this row stands for: refusals are aggregated per key per minute (audit_log.ts). */
  @column()
  declare count: number

  /** { field: [before, after] }, stored as JSON text (the same on SQLite and PostgreSQL). */
  @column({ consume: (value) => (value ? JSON.parse(value) : null) })
  declare changes: Record<string, [unknown, unknown]> | null
}
