import { DateTime } from 'luxon'
import { type BaseModel, column } from '@adonisjs/lucid/orm'
import type { NormalizeConstructor } from '@adonisjs/core/types/helpers'

/** createdAt and updatedAt, set by Lucid on insert and on every save (users, roles, menus, articles). */
export function withTimestamps<Model extends NormalizeConstructor<typeof BaseModel>>(
  superclass: Model
) {
  class WithTimestamps extends superclass {
    @column.dateTime({ autoCreate: true })
    declare createdAt: DateTime

    @column.dateTime({ autoCreate: true, autoUpdate: true })
    declare updatedAt: DateTime
  }
  return WithTimestamps
}
