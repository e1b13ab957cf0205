import db from '@adonisjs/lucid/services/db'
import type { Infer } from '@vinejs/vine/types'
import DictType from '#models/dict_type'
import DictItem from '#models/dict_item'
import { notFound } from '#exceptions/api_exception'
import { type Actor, findOr404, ordered, paginate, whereKeyword } from '#services/admin/common'
import { auditCreated, deleteAudited, saveAudited } from '#services/admin/writes'
import { definedOnly } from '#core/defined_only'
import { dictItemSort, dictTypeSort } from '#resources/dicts'
import type {
  createDictItemValidator,
  createDictTypeValidator,
  listDictItemsValidator,
  listDictTypesValidator,
  updateDictItemValidator,
  updateDictTypeValidator,
} from '#validators/admin/dict'

/**
 * Dictionaries (types) and their items. Nothing here grants anything, so the route's code is the
 * whole rule. A duplicate type code, or item value within a type, is a 409 from the unique index.
 * Every write bumps settings_version by trigger (GET /api/dicts/:code: app/services/settings_reads.ts).
 */
export default class DictService {
  async list(filters: Infer<typeof listDictTypesValidator>) {
    const query = DictType.query()
    whereKeyword(query, ['code', 'name'], filters.keyword)
    if (filters.status) query.where('status', filters.status)
    return paginate(
      ordered(query, filters.sort, dictTypeSort, [{ column: 'id', order: 'asc' }]),
      filters
    )
  }

  show(id: number) {
    return findOr404(DictType, id)
  }

  create(actor: Actor, data: Infer<typeof createDictTypeValidator>) {
    return db.transaction(async (trx) => {
      const created = await DictType.create(
        {
          code: data.code,
          name: data.name,
          status: data.status ?? 'enabled',
          remark: data.remark ?? null,
        },
        { client: trx }
      )
      await auditCreated(trx, actor, 'dict', created)
      return created
    })
  }

  update(actor: Actor, id: number, data: Infer<typeof updateDictTypeValidator>) {
    return db.transaction(async (trx) => {
      const type = await findOr404(DictType, id, trx)
      await saveAudited(trx, actor, 'dict', type, () => type.merge(definedOnly(data)))
      return type
    })
  }

  /** Its items go with it (ON DELETE CASCADE). */
  async destroy(actor: Actor, id: number) {
    await db.transaction(async (trx) => {
      await deleteAudited(trx, actor, 'dict', await findOr404(DictType, id, trx))
    })
  }

  /** The items of type `code` (404 for an unknown type), by (sort, id). */
  async items(code: string, filters: Infer<typeof listDictItemsValidator>) {
    await this.typeOf(code)
    const query = DictItem.query().where('type_code', code)
    if (filters.status) query.where('status', filters.status)
    const order = ordered(query, filters.sort, dictItemSort, [
      { column: 'sort', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    return paginate(order, filters)
  }

  createItem(actor: Actor, code: string, data: Infer<typeof createDictItemValidator>) {
    return db.transaction(async (trx) => {
      await this.typeOf(code, trx)
      const created = await DictItem.create(
        {
          typeCode: code,
          label: data.label,
          value: data.value,
          sort: data.sort ?? 0,
          status: data.status ?? 'enabled',
          cssClass: data.cssClass ?? null,
        },
        { client: trx }
      )
      await auditCreated(trx, actor, 'dict_item', created)
      return created
    })
  }

  updateItem(actor: Actor, code: string, id: number, data: Infer<typeof updateDictItemValidator>) {
    return db.transaction(async (trx) => {
      const item = await this.itemOf(code, id, trx)
      await saveAudited(trx, actor, 'dict_item', item, () => item.merge(definedOnly(data)))
      return item
    })
  }

  async destroyItem(actor: Actor, code: string, id: number) {
    await db.transaction(async (trx) => {
      await deleteAudited(trx, actor, 'dict_item', await this.itemOf(code, id, trx))
    })
  }

  private async typeOf(code: string, client = db.connection()) {
    const type = await DictType.findBy('code', code, { client })
    if (!type) throw notFound()
    return type
  }

  /** Item `id` of type `code`: an item of another type is 404 here. */
  private async itemOf(code: string, id: number, client = db.connection()) {
    const item = await findOr404(DictItem, id, client)
    if (item.typeCode !== code) throw notFound()
    return item
  }
}
