import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ParamService from '#services/admin/param_service'
import { actorOf } from '#services/admin/common'
import ParamTransformer, { paramSchema } from '#transformers/admin/param_transformer'
import {
  createParamValidator,
  listParamsValidator,
  updateParamValidator,
} from '#validators/admin/param'
import { contract } from '#openapi/contract'

/** /api/admin/params (start/routes/admin.ts declares the codes). */
@inject()
export default class ParamsController {
  static contract = contract({
    index: { summary: 'List parameters', query: listParamsValidator, page: paramSchema },
    show: { summary: 'One parameter', data: paramSchema },
    store: {
      summary: 'Create a parameter (the value checked against its type)',
      body: createParamValidator,
      status: 201,
      data: paramSchema,
      errors: [409],
    },
    update: {
      summary: 'Update a parameter (a system parameter keeps its key)',
      body: updateParamValidator,
      data: paramSchema,
      errors: [409],
    },
    destroy: {
      summary: 'Delete a parameter (never a system one: 409)',
      status: 204,
      errors: [409],
    },
  })

  constructor(protected params: ParamService) {}

  async index(ctx: HttpContext) {
    const page = await this.params.list(await ctx.request.validateUsing(listParamsValidator))
    return ctx.serialize(ParamTransformer.paginate(page.rows, page.meta))
  }

  async show(ctx: HttpContext) {
    return ctx.serialize(ParamTransformer.transform(await this.params.show(ctx.params.id)))
  }

  async store(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(createParamValidator)
    const param = await this.params.create(actorOf(ctx), data)
    ctx.response.status(201)
    return ctx.serialize(ParamTransformer.transform(param))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateParamValidator)
    return ctx.serialize(
      ParamTransformer.transform(await this.params.update(actorOf(ctx), ctx.params.id, data))
    )
  }

  async destroy(ctx: HttpContext) {
    await this.params.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }
}
