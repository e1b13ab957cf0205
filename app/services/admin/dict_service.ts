import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Infer } from '@vinejs/vine/types'
import DictType from '#models/dict_type'
import DictItem from '#models/dict_item'
import { notFound } from '#exceptions/api_exception'
import { type Actor, BY_SORT, ResourceService, findOr404, listPage } from '#services/admin/common'
import { createAudited, destroyAudited, updateAudited } from '#services/admin/writes'
import { definedOnly } from '#core/defined_only'
import { dictItemSort, dictTypeSort } from '#resources/dicts'
import {
  type createDictItemValidator,
  type createDictTypeValidator,
  dictItemWrites,
  dictTypeWrites,
  type listDictItemsValidator,
  type listDictTypesValidator,
  type updateDictItemValidator,
  type updateDictTypeValidator,
} from '#validators/admin/dict'

/**
 * Dictionaries (types) and their items. Nothing here grants anything, so the route's code is the
 * whole rule. A duplicate type code, or item value within a type, is a 409 from the unique index.
 * Every write bumps settings_version by trigger (GET /api/dicts/:code: app/services/settings_reads.ts).
 */
export default class DictService extends ResourceService<
  typeof DictType,
  Infer<typeof listDictTypesValidator>
> {
  constructor() {
    super(DictType, {
      keyword: ['code', 'name'],
      exact: ['status'],
      sortable: dictTypeSort,
      order: [{ column: 'id', order: 'asc' }],
    })
  }

  create(actor: Actor, data: Infer<typeof createDictTypeValidator>) {
    return createAudited(actor, 'dict', DictType, dictTypeWrites.withDefaults(data))
  }

  update(actor: Actor, id: number, data: Infer<typeof updateDictTypeValidator>) {
    const find = (trx: TransactionClientContract) => findOr404(DictType, id, trx)
    return updateAudited(actor, 'dict', find, (type) => type.merge(definedOnly(data)))
  }

  /** Its items go with it (ON DELETE CASCADE). */
  destroy(actor: Actor, id: number) {
    return destroyAudited(actor, 'dict', (trx) => findOr404(DictType, id, trx))
  }

  /** The items of type `code` (404 for an unknown type), by (sort, id). */
  async items(code: string, filters: Infer<typeof listDictItemsValidator>) {
    await this.typeOf(code)
    return listPage(DictItem.query().where('type_code', code), filters, {
      exact: ['status'],
      sortable: dictItemSort,
      order: BY_SORT,
    })
  }

  createItem(actor: Actor, code: string, data: Infer<typeof createDictItemValidator>) {
    // The type must exist (404), checked in the insert's transaction.
    const typeExists = (trx: TransactionClientContract) => this.typeOf(code, trx)
    return createAudited(
      actor,
      'dict_item',
      DictItem,
      { typeCode: code, ...dictItemWrites.withDefaults(data) },
      typeExists
    )
  }

  updateItem(actor: Actor, code: string, id: number, data: Infer<typeof updateDictItemValidator>) {
    const find = (trx: TransactionClientContract) => this.itemOf(code, id, trx)
    return updateAudited(actor, 'dict_item', find, (item) => item.merge(definedOnly(data)))
  }

  destroyItem(actor: Actor, code: string, id: number) {
    return destroyAudited(actor, 'dict_item', (trx) => this.itemOf(code, id, trx))
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
