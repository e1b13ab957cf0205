import type { HttpContext } from '@adonisjs/core/http'
import { pageMeta } from '#providers/api_provider'
import MenuService from '#services/admin/menu_service'
import { actorOf } from '#services/admin/common'
import MenuTransformer, { MenuTreeTransformer } from '#transformers/admin/menu_transformer'
import {
  createMenuValidator,
  listMenusValidator,
  updateMenuValidator,
} from '#validators/admin/menu'
import { contract } from '#openapi/contract'
import { menuSchema, menuTreeSchema } from '#transformers/admin/menu_transformer'

const menus = new MenuService()

/** /api/admin/menus: each route declares its permission in start/routes/admin.ts. */
export default class MenusController {
  static contract = contract({
    tree: { summary: 'Every menu as the editing tree', list: menuTreeSchema },
    index: { summary: 'List menus', query: listMenusValidator, page: menuSchema },
    show: { summary: 'One menu node', data: menuSchema },
    store: {
      summary: 'Create a menu node (under a node the caller holds)',
      body: createMenuValidator,
      status: 201,
      data: menuSchema,
      errors: [409],
    },
    update: {
      summary: 'Update, re-code or move a menu node',
      body: updateMenuValidator,
      data: menuSchema,
      errors: [409],
    },
    destroy: { summary: 'Delete a menu node without children', status: 204, errors: [409] },
  })

  /** The whole tree, every type and status, for the menu editor. */
  async tree(ctx: HttpContext) {
    return ctx.serialize(MenuTreeTransformer.transform(await menus.tree()))
  }

  async index(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(listMenusValidator)
    const page = await menus.list(filters)
    return ctx.serialize(
      MenuTransformer.paginate(page.rows, pageMeta(page.total, page.pageNum, page.pageSize))
    )
  }

  async show(ctx: HttpContext) {
    return ctx.serialize(MenuTransformer.transform(await menus.show(ctx.params.id)))
  }

  async store(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(createMenuValidator)
    const menu = await menus.create(actorOf(ctx), data)
    ctx.response.status(201)
    return ctx.serialize(MenuTransformer.transform(menu))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateMenuValidator)
    return ctx.serialize(
      MenuTransformer.transform(await menus.update(actorOf(ctx), ctx.params.id, data))
    )
  }

  async destroy(ctx: HttpContext) {
    await menus.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }
}
