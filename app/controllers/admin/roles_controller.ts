import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Role from '#models/role'
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

  constructor(protected roles: RoleService) {}

  async index({ request, serialize }: HttpContext) {
    const page = await this.roles.list(await request.validateUsing(listRolesValidator))
    return serialize(RoleTransformer.paginate(page.rows, page.meta))
  }

  async show({ params, serialize }: HttpContext) {
    return serialize(detail(await this.roles.show(params.id)))
  }

  async store(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(createRoleValidator)
    const role = await this.roles.create(actorOf(ctx), data)
    ctx.response.status(201)
    return ctx.serialize(detail(role))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateRoleValidator)
    return ctx.serialize(detail(await this.roles.update(actorOf(ctx), ctx.params.id, data)))
  }

  async destroy(ctx: HttpContext) {
    await this.roles.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }

  async assignMenus(ctx: HttpContext) {
    const { menuIds } = await ctx.request.validateUsing(assignMenusValidator)
    return ctx.serialize(detail(await this.roles.assignMenus(actorOf(ctx), ctx.params.id, menuIds)))
  }
}

/** Every answer about one role carries its menu ids (the detail variant). */
const detail = (role: Role) => RoleTransformer.transform(role).useVariant('toDetail')
