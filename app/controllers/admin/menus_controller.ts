import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
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

/** /api/admin/menus: each route declares its permission in start/routes/admin.ts. */
@inject()
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

  constructor(protected menus: MenuService) {}

  /** The whole tree, every type and status, for the menu editor. */
  async tree({ serialize }: HttpContext) {
    return serialize(MenuTreeTransformer.transform(await this.menus.tree()))
  }

  async index({ request, serialize }: HttpContext) {
    const page = await this.menus.list(await request.validateUsing(listMenusValidator))
    return serialize(MenuTransformer.paginate(page.rows, page.meta))
  }

  async show({ params, serialize }: HttpContext) {
    return serialize(MenuTransformer.transform(await this.menus.show(params.id)))
  }

  async store(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(createMenuValidator)
    const menu = await this.menus.create(actorOf(ctx), data)
    ctx.response.status(201)
    return ctx.serialize(MenuTransformer.transform(menu))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateMenuValidator)
    const menu = await this.menus.update(actorOf(ctx), ctx.params.id, data)
    return ctx.serialize(MenuTransformer.transform(menu))
  }

  async destroy(ctx: HttpContext) {
    await this.menus.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }
}
