import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'

export type DictStatus = 'enabled' | 'disabled'

/** A dictionary: a named list of options (the values of a select or a status chip). */
export default class DictType extends withTimestamps(BaseModel) {
  @column({ isPrimary: true })
  declare id: number

  /** Never changes once created: clients and dict_items name the type by it. */
  @column()
  declare code: string

  @column()
  declare name: string

  @column()
  declare status: DictStatus

  @column()
  declare remark: string | null
}
