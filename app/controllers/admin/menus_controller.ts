import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import MenuService from '#services/admin/menu_service'
import { CrudController } from '#controllers/admin/crud'
import type Menu from '#models/menu'
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
export default class MenusController extends CrudController<Menu> {
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

  protected transformer = MenuTransformer

  constructor(protected service: MenuService) {
    super()
  }

  /** The whole tree, every type and status, for the menu editor. */
  async tree({ serialize }: HttpContext) {
    return serialize(MenuTreeTransformer.transform(await this.service.tree()))
  }
}
