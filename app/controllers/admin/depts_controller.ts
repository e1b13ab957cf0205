import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import DeptService from '#services/admin/dept_service'
import { actorOf } from '#services/admin/common'
import DeptTransformer, {
  DeptTreeTransformer,
  deptSchema,
  deptTreeSchema,
} from '#transformers/admin/dept_transformer'
import {
  createDeptValidator,
  listDeptsValidator,
  updateDeptValidator,
} from '#validators/admin/dept'
import { contract } from '#openapi/contract'

/**
 * /api/admin/depts: each route declares its permission in start/routes/admin.ts. Every answer
 * holds only the departments the caller's data scope shows.
 */
@inject()
export default class DeptsController {
  static contract = contract({
    tree: { summary: 'The departments the caller sees, as a tree', list: deptTreeSchema },
    index: {
      summary: 'The departments the caller sees',
      query: listDeptsValidator,
      page: deptSchema,
    },
    show: { summary: 'One department', data: deptSchema },
    store: {
      summary: 'Create a department (under one the caller sees)',
      body: createDeptValidator,
      status: 201,
      data: deptSchema,
    },
    update: {
      summary: 'Rename, re-sort or move a department (no cycles; only within what the caller sees)',
      body: updateDeptValidator,
      data: deptSchema,
    },
    destroy: {
      summary: 'Delete a department without sub-departments or members',
      status: 204,
      errors: [409],
    },
  })

  constructor(protected depts: DeptService) {}

  async tree(ctx: HttpContext) {
    return ctx.serialize(DeptTreeTransformer.transform(await this.depts.tree(actorOf(ctx))))
  }

  async index(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(listDeptsValidator)
    const page = await this.depts.list(actorOf(ctx), filters)
    return ctx.serialize(DeptTransformer.paginate(page.rows, page.meta))
  }

  async show(ctx: HttpContext) {
    return ctx.serialize(
      DeptTransformer.transform(await this.depts.show(actorOf(ctx), ctx.params.id))
    )
  }

  async store(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(createDeptValidator)
    const dept = await this.depts.create(actorOf(ctx), data)
    ctx.response.status(201)
    return ctx.serialize(DeptTransformer.transform(dept))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateDeptValidator)
    return ctx.serialize(
      DeptTransformer.transform(await this.depts.update(actorOf(ctx), ctx.params.id, data))
    )
  }

  async destroy(ctx: HttpContext) {
    await this.depts.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }
}
