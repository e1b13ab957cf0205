import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Role from '#models/role'
import { CrudController, crudContract } from '#controllers/admin/crud'
import RoleService from '#services/admin/role_service'
import { actorOf } from '#services/admin/common'
import RoleTransformer from '#transformers/admin/role_transformer'
import {
  assignMenusValidator,
  createRoleValidator,
  listRolesValidator,
  updateRoleValidator,
} from '#validators/admin/role'
import { contract } from '#openapi/contract'
import { roleDetailSchema, roleSchema } from '#transformers/admin/role_transformer'

/** /api/admin/roles: each route declares its permission in start/routes/admin.ts. */
@inject()
export default class RolesController extends CrudController<Role> {
  static contract = contract({
    ...crudContract({
      schema: roleSchema,
      detail: roleDetailSchema,
      validators: {
        list: listRolesValidator,
        create: createRoleValidator,
        update: updateRoleValidator,
      },
      summaries: {
        index: 'List roles',
        show: 'One role with its menu ids',
        store: 'Create a role (menus only among those the caller holds)',
        update: 'Update a role',
        destroy: 'Delete a role',
      },
      conflicts: ['store', 'update', 'destroy'],
    }),
    assignMenus: {
      summary: "Replace a role's menus (grant rule)",
      body: assignMenusValidator,
      data: roleDetailSchema,
    },
  })

  protected transformer = RoleTransformer

  /** Every answer about one role carries its menu ids. */
  protected variant = 'toDetail'

  constructor(protected service: RoleService) {
    super()
  }

  async assignMenus(ctx: HttpContext) {
    const { menuIds } = await ctx.request.validateUsing(assignMenusValidator)
    return ctx.serialize(
      this.present(await this.service.assignMenus(actorOf(ctx), ctx.params.id, menuIds))
    )
  }
}
