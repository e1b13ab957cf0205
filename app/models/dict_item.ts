import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'
import type { DictStatus } from '#models/dict_type'

/** One option of a dictionary: `value` is what is stored, `label` what is shown. */
export default class DictItem extends withTimestamps(BaseModel) {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare typeCode: string

  @column()
  declare label: string

  @column()
  declare value: string

  @column()
  declare sort: number

  @column()
  declare status: DictStatus

  /** A style hint for the client (e.g. `success`, `warning`), never markup. */
  @column()
  declare cssClass: string | null
}
