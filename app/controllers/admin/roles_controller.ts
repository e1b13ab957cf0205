import type { HttpContext } from '@adonisjs/core/http'
import { pageMeta } from '#providers/api_provider'
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

const roles = new RoleService()

/** /api/admin/roles: each route declares its permission in start/routes/admin.ts. */
export default class RolesController {
  static contract = contract({
    index: { summary: 'List roles', query: listRolesValidator, page: roleSchema },
    show: { summary: 'One role with its menu ids', data: roleDetailSchema },
    store: {
      summary: 'Create a role (menus only among those the caller holds)',
      body: createRoleValidator,
      status: 201,
      data: roleDetailSchema,
      errors: [409],
    },
    update: {
      summary: 'Update a role',
      body: updateRoleValidator,
      data: roleDetailSchema,
      errors: [409],
    },
    destroy: { summary: 'Delete a role', status: 204, errors: [409] },
    assignMenus: {
      summary: "Replace a role's menus (grant rule)",
      body: assignMenusValidator,
      data: roleDetailSchema,
    },
  })

  async index(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(listRolesValidator)
    const page = await roles.list(filters)
    return ctx.serialize(
      RoleTransformer.paginate(page.rows, pageMeta(page.total, page.pageNum, page.pageSize))
    )
  }

  async show(ctx: HttpContext) {
    const role = await roles.show(ctx.params.id)
    return ctx.serialize(RoleTransformer.transform(role).useVariant('toDetail'))
  }

  async store(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(createRoleValidator)
    const role = await roles.create(actorOf(ctx), data)
    ctx.response.status(201)
    return ctx.serialize(RoleTransformer.transform(role).useVariant('toDetail'))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateRoleValidator)
    const role = await roles.update(actorOf(ctx), ctx.params.id, data)
    return ctx.serialize(RoleTransformer.transform(role).useVariant('toDetail'))
  }

  async destroy(ctx: HttpContext) {
    await roles.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }

  async assignMenus(ctx: HttpContext) {
    const { menuIds } = await ctx.request.validateUsing(assignMenusValidator)
    const role = await roles.assignMenus(actorOf(ctx), ctx.params.id, menuIds)
    return ctx.serialize(RoleTransformer.transform(role).useVariant('toDetail'))
  }
}
