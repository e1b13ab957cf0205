import { BaseTransformer } from '@adonisjs/core/transformers'
import { named, s } from '#openapi/schema'
import { type DictAnswer, dictOption } from '#resources/dicts'

export const dictOptionsSchema = named(
  'DictOptions',
  s.object({ code: s.string(), name: s.string(), items: s.array(dictOption.schema) })
)

export default class DictOptionsTransformer extends BaseTransformer<DictAnswer> {
  toObject() {
    return {
      code: this.resource.code,
      name: this.resource.name,
      items: this.resource.items.map((item) => this.pick(item, dictOption.keys)),
    }
  }
}
