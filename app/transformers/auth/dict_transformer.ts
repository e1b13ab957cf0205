import { BaseTransformer } from '@adonisjs/core/transformers'
import type DictItem from '#models/dict_item'
import { named, s, shape } from '#openapi/schema'

/** A dictionary as every signed-in administrator reads it: its enabled items, in order. */
export type DictAnswer = { code: string; name: string; items: DictItem[] }

const option = shape({
  label: s.string(),
  value: s.string(),
  sort: s.integer(),
  cssClass: s.nullable(s.string()),
})
export const dictOptionsSchema = named(
  'DictOptions',
  s.object({ code: s.string(), name: s.string(), items: s.array(option.schema) })
)

export default class DictOptionsTransformer extends BaseTransformer<DictAnswer> {
  toObject() {
    return {
      code: this.resource.code,
      name: this.resource.name,
      items: this.resource.items.map((item) => this.pick(item, option.keys)),
    }
  }
}
