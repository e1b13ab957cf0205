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

const roles = new RoleService()

/** /api/admin/roles: each route declares its permission in start/routes/admin.ts. */
export default class RolesController {
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
