import { BaseModel, column } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'

export const PARAM_TYPES = ['string', 'number', 'boolean', 'json'] as const
export type ParamType = (typeof PARAM_TYPES)[number]

/**
 * A system parameter: a setting an operator changes without a deploy. `value` is stored as text
 * and checked against `type` on every write (app/services/admin/param_service.ts).
 */
export default class Param extends withTimestamps(BaseModel) {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare key: string

  @column()
  declare value: string

  @column()
  declare type: ParamType

  /** Seeded: cannot be deleted or re-keyed. */
  @column({ consume: Boolean })
  declare isSystem: boolean

  /** Readable by anyone at GET /api/params/:key. */
  @column({ consume: Boolean })
  declare isPublic: boolean

  @column()
  declare remark: string | null
}

/**
 * The value `text` stands for under `type`, or undefined when it does not fit: a finite decimal
 * number, `true`/`false`, any JSON, or the text itself.
 */
export function parseParamValue(type: ParamType, text: string): unknown {
  switch (type) {
    case 'number':
      return /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text) &&
        Number.isFinite(Number(text))
        ? Number(text)
        : undefined
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined
    case 'json':
      try {
        return JSON.parse(text)
      } catch {
        return undefined
      }
    default:
      return text
  }
}
