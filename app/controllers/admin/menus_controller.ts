import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import MenuService from '#services/admin/menu_service'
import { CrudController, crudContract } from '#controllers/admin/crud'
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
    ...crudContract({
      schema: menuSchema,
      validators: {
        list: listMenusValidator,
        create: createMenuValidator,
        update: updateMenuValidator,
      },
      summaries: {
        index: 'List menus',
        show: 'One menu node',
        store: 'Create a menu node (under a node the caller holds)',
        update: 'Update, re-code or move a menu node',
        destroy: 'Delete a menu node without children',
      },
      conflicts: ['store', 'update', 'destroy'],
    }),
    tree: { summary: 'Every menu as the editing tree', list: menuTreeSchema },
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
