import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import DictService from '#services/admin/dict_service'
import { actorOf } from '#services/admin/common'
import { CrudController, crudContract } from '#controllers/admin/crud'
import type DictType from '#models/dict_type'
import DictTypeTransformer, {
  DictItemTransformer,
  dictItemSchema,
  dictTypeSchema,
} from '#transformers/admin/dict_transformer'
import {
  createDictItemValidator,
  createDictTypeValidator,
  listDictItemsValidator,
  listDictTypesValidator,
  updateDictItemValidator,
  updateDictTypeValidator,
} from '#validators/admin/dict'
import { contract } from '#openapi/contract'

/** /api/admin/dicts and /api/admin/dicts/:code/items (start/routes/admin.ts declares the codes). */
@inject()
export default class DictsController extends CrudController<DictType> {
  static contract = contract({
    ...crudContract({
      schema: dictTypeSchema,
      validators: {
        list: listDictTypesValidator,
        create: createDictTypeValidator,
        update: updateDictTypeValidator,
      },
      summaries: {
        index: 'List dictionaries',
        show: 'One dictionary',
        store: 'Create a dictionary (its code is set once)',
        update: 'Rename or enable/disable a dictionary',
        destroy: 'Delete a dictionary and its items',
      },
      conflicts: ['store'],
    }),
    items: {
      summary: "A dictionary's items",
      query: listDictItemsValidator,
      page: dictItemSchema,
    },
    storeItem: {
      summary: 'Add an item (its value unique in the dictionary)',
      body: createDictItemValidator,
      status: 201,
      data: dictItemSchema,
      errors: [409],
    },
    updateItem: {
      summary: 'Update an item',
      body: updateDictItemValidator,
      data: dictItemSchema,
      errors: [409],
    },
    destroyItem: { summary: 'Delete an item', status: 204 },
  })

  protected transformer = DictTypeTransformer

  constructor(protected service: DictService) {
    super()
  }

  async items(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(listDictItemsValidator)
    const page = await this.service.items(ctx.params.code, filters)
    return ctx.serialize(DictItemTransformer.paginate(page.rows, page.meta))
  }

  async storeItem(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(createDictItemValidator)
    const item = await this.service.createItem(actorOf(ctx), ctx.params.code, data)
    ctx.response.status(201)
    return ctx.serialize(DictItemTransformer.transform(item))
  }

  async updateItem(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateDictItemValidator)
    const item = await this.service.updateItem(actorOf(ctx), ctx.params.code, ctx.params.id, data)
    return ctx.serialize(DictItemTransformer.transform(item))
  }

  async destroyItem(ctx: HttpContext) {
    await this.service.destroyItem(actorOf(ctx), ctx.params.code, ctx.params.id)
    return ctx.response.noContent()
  }
}
