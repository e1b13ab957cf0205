import { inject } from '@adonisjs/core'
import type Param from '#models/param'
import ParamService from '#services/admin/param_service'
import { CrudController } from '#controllers/admin/crud'
import ParamTransformer, { paramSchema } from '#transformers/admin/param_transformer'
import {
  createParamValidator,
  listParamsValidator,
  updateParamValidator,
} from '#validators/admin/param'
import { contract } from '#openapi/contract'

/** /api/admin/params (start/routes/admin.ts declares the codes). */
@inject()
export default class ParamsController extends CrudController<Param> {
  static contract = contract({
    index: { summary: 'List parameters', query: listParamsValidator, page: paramSchema },
    show: { summary: 'One parameter', data: paramSchema },
    store: {
      summary: 'Create a parameter (the value checked against its type)',
      body: createParamValidator,
      status: 201,
      data: paramSchema,
      errors: [409],
    },
    update: {
      summary: 'Update a parameter (a system parameter keeps its key)',
      body: updateParamValidator,
      data: paramSchema,
      errors: [409],
    },
    destroy: {
      summary: 'Delete a parameter (never a system one: 409)',
      status: 204,
      errors: [409],
    },
  })

  protected transformer = ParamTransformer

  constructor(protected service: ParamService) {
    super()
  }
}
