import { inject } from '@adonisjs/core'
import type Param from '#models/param'
import ParamService from '#services/admin/param_service'
import { CrudController, crudContract } from '#controllers/admin/crud'
import ParamTransformer, { paramSchema } from '#transformers/admin/param_transformer'
import {
  createParamValidator,
  listParamsValidator,
  updateParamValidator,
} from '#validators/admin/param'

/** /api/admin/params (start/routes/admin.ts declares the codes). */
@inject()
export default class ParamsController extends CrudController<Param> {
  static contract = crudContract({
    schema: paramSchema,
    validators: {
      list: listParamsValidator,
      create: createParamValidator,
      update: updateParamValidator,
    },
    summaries: {
      index: 'List parameters',
      show: 'One parameter',
      store: 'Create a parameter (the value checked against its type)',
      update: 'Update a parameter (a system parameter keeps its key)',
      destroy: 'Delete a parameter (never a system one: 409)',
    },
    conflicts: ['store', 'update', 'destroy'],
  })

  protected transformer = ParamTransformer

  constructor(protected service: ParamService) {
    super()
  }
}
