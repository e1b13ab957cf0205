import DictType from '#models/dict_type'
import DictItem from '#models/dict_item'
import Param, { parseParamValue } from '#models/param'
import { notFound } from '#exceptions/api_exception'
import { settingsAnswer } from '#services/settings_cache'
import type { DictAnswer } from '#resources/dicts'
import type { PublicParam } from '#resources/params'

/**
 * What clients read from dictionaries and parameters, cached per settings version
 * (app/services/settings_cache.ts): never stale, one small read when nothing changed.
 */

/** An enabled dictionary with its enabled items by (sort, id); 404 otherwise. */
export async function dictOptions(code: string): Promise<DictAnswer> {
  const answer = await settingsAnswer(`dict:${code}`, async () => {
    const type = await DictType.query().where('code', code).where('status', 'enabled').first()
    if (!type) return null
    const items = await DictItem.query()
      .where('type_code', code)
      .where('status', 'enabled')
      .orderBy('sort')
      .orderBy('id')
    return { code: type.code, name: type.name, items }
  })
  if (!answer) throw notFound()
  return answer
}

/** A parameter marked public, its value typed; 404 for any other key. */
export async function publicParam(key: string): Promise<PublicParam> {
  const answer = await settingsAnswer(`param:${key}`, async () => {
    const param = await Param.query().where('key', key).where('is_public', true).first()
    if (!param) return null
    return { key: param.key, type: param.type, value: parseParamValue(param.type, param.value) }
  })
  if (!answer) throw notFound()
  return answer
}
