import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Infer } from '@vinejs/vine/types'
import Param, { type ParamType, parseParamValue } from '#models/param'
import { FieldError, conflict } from '#exceptions/api_exception'
import { type Actor, ResourceService, findOr404 } from '#services/admin/common'
import { createAudited, destroyAudited, updateAudited } from '#services/admin/writes'
import { definedOnly } from '#core/defined_only'
import { paramSort } from '#resources/params'
import {
  type createParamValidator,
  type listParamsValidator,
  paramWrites,
  type updateParamValidator,
} from '#validators/admin/param'

/**
 * System parameters. Every write checks the value against the type (422 on `value`), is audited
 * with before/after, and bumps settings_version by trigger (GET /api/params/:key). A system
 * parameter (seeded) keeps its key and is never deleted (409).
 */
export default class ParamService extends ResourceService<
  typeof Param,
  Infer<typeof listParamsValidator>
> {
  constructor() {
    super(Param, {
      keyword: ['key', 'remark'],
      exact: ['type'],
      sortable: paramSort,
      order: [{ column: 'key', order: 'asc' }],
    })
  }

  create(actor: Actor, data: Infer<typeof createParamValidator>) {
    assertFits(data.type, data.value)
    return createAudited(actor, 'param', Param, {
      ...paramWrites.withDefaults(data),
      isSystem: false,
    })
  }

  update(actor: Actor, id: number, data: Infer<typeof updateParamValidator>) {
    const find = (trx: TransactionClientContract) => findOr404(Param, id, trx)
    return updateAudited(actor, 'param', find, (param) => {
      if (param.isSystem && data.key !== undefined && data.key !== param.key) {
        throw conflict('systemParamKey')
      }
      assertFits(data.type ?? param.type, data.value ?? param.value)
      param.merge(definedOnly(data))
    })
  }

  destroy(actor: Actor, id: number) {
    return destroyAudited(actor, 'param', async (trx) => {
      const param = await findOr404(Param, id, trx)
      if (param.isSystem) throw conflict('systemParamDelete')
      return param
    })
  }
}

function assertFits(type: ParamType, value: string) {
  if (parseParamValue(type, value) === undefined) {
    throw new FieldError('value', 'paramValueType', type, { type })
  }
}
