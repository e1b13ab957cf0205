import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import DeptService from '#services/admin/dept_service'
import { actorOf } from '#services/admin/common'
import { CrudController, crudContract } from '#controllers/admin/crud'
import type Dept from '#models/dept'
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
export default class DeptsController extends CrudController<Dept> {
  static contract = contract({
    ...crudContract({
      schema: deptSchema,
      validators: {
        list: listDeptsValidator,
        create: createDeptValidator,
        update: updateDeptValidator,
      },
      summaries: {
        index: 'The departments the caller sees',
        show: 'One department',
        store: 'Create a department (under one the caller sees)',
        update:
          'Rename, re-sort or move a department (no cycles; only within what the caller sees)',
        destroy: 'Delete a department without sub-departments or members',
      },
      conflicts: ['destroy'],
    }),
    tree: { summary: 'The departments the caller sees, as a tree', list: deptTreeSchema },
  })

  protected transformer = DeptTransformer

  constructor(protected service: DeptService) {
    super()
  }

  async tree(ctx: HttpContext) {
    return ctx.serialize(DeptTreeTransformer.transform(await this.service.tree(actorOf(ctx))))
  }
}
