import type { HttpContext } from '@adonisjs/core/http'
import type { BaseTransformer } from '@adonisjs/core/transformers'
import type { ItemContract } from '@adonisjs/http-transformers/types'
import type { VineValidator } from '@vinejs/vine'
import { type Actor, actorOf } from '#services/admin/common'
import type { Operation } from '#openapi/contract'
import type { Schema } from '#openapi/schema'
import type { LucidModel, ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import type { CsvColumns } from '#resources/csv_columns'
import { sendExport } from '#services/admin/list_export'

/** A transformer class of `Row` (its static `transform` and `paginate`). */
type TransformerOf<Row> = {
  new (resource: Row, ...rest: any[]): BaseTransformer<Row> & { toObject(): Record<string, any> }
  transform: typeof BaseTransformer.transform
  paginate: typeof BaseTransformer.paginate
}

/**
 * The service of an admin list: `viewer` is the caller, for the lists its data scope narrows
 * (the others ignore it).
 */
type ListService<Row> = {
  list(filters: any, viewer: Actor): Promise<{ rows: Row[]; meta: Record<string, any> }>
}

type Validator = NonNullable<Operation['query']>

/** The contract of ListController's `index`: a page of `schema`, filtered by `query`. */
export function listContract(summary: string, query: Validator, schema: Schema) {
  return { index: { summary, query, page: schema } }
}

/**
 * The contract of CrudController's five actions, in the answers they give: a page of `schema`,
 * `detail` (default: `schema`) about one row, 201 on store and 204 on destroy. `conflicts` names
 * the actions that may answer 409.
 */
export function crudContract(resource: {
  schema: Schema
  detail?: Schema
  validators: { list: Validator; create: Validator; update: Validator }
  summaries: { index: string; show: string; store: string; update: string; destroy: string }
  conflicts?: ('store' | 'update' | 'destroy')[]
}) {
  const { schema, detail = schema, validators, summaries, conflicts = [] } = resource
  const errors = (action: 'store' | 'update' | 'destroy') =>
    conflicts.includes(action) ? { errors: [409] } : {}
  return {
    ...listContract(summaries.index, validators.list, schema),
    show: { summary: summaries.show, data: detail },
    store: {
      summary: summaries.store,
      body: validators.create,
      status: 201,
      data: detail,
      ...errors('store'),
    },
    update: {
      summary: summaries.update,
      body: validators.update,
      data: detail,
      ...errors('update'),
    },
    destroy: { summary: summaries.destroy, status: 204, ...errors('destroy') },
  } satisfies Record<string, Operation>
}

/** The service of a log: its list, and the query the list and its export share. */
type LogService<Row> = ListService<Row> & {
  query(filters: any): ModelQueryBuilderContract<LucidModel, Row>
}

/** The service of an admin resource with the five CRUD actions. */
type CrudService<Row> = ListService<Row> & {
  show(id: number, viewer: Actor): Promise<Row>
  create(actor: Actor, data: any): Promise<Row>
  update(actor: Actor, id: number, data: any): Promise<Row>
  destroy(actor: Actor, id: number): Promise<unknown>
}

/**
 * An admin list: `index` validates the query with the validator its contract declares (the same
 * object the OpenAPI document shows) and answers a page of `transformer`.
 */
export abstract class ListController<Row, Service extends ListService<Row> = ListService<Row>> {
  static contract: Record<string, Operation>
  protected abstract service: Service
  protected abstract transformer: TransformerOf<Row>

  async index(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(this.validator('index'))
    const page = await this.service.list(filters, actorOf(ctx))
    return ctx.serialize(this.transformer.paginate(page.rows, page.meta))
  }

  /** The query or body validator the action's contract declares. */
  protected validator(action: string) {
    const operation = (this.constructor as typeof ListController).contract[action]
    return (operation.query ?? operation.body) as VineValidator<any, any>
  }
}

/**
 * A log's list and its export (`export` in the contract): the rows the list's filters match, as
 * the list shows them, in `csv`'s columns.
 */
export abstract class LogController<
  Row,
  Service extends LogService<Row> = LogService<Row>,
> extends ListController<Row, Service> {
  /** The file name's stem and the columns. */
  protected abstract csv: { name: string; columns: CsvColumns }

  async export(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(this.validator('export'))
    return sendExport(ctx, {
      ...this.csv,
      query: this.service.query(filters),
      filters,
      toObject: (row: Row) => new this.transformer(row).toObject(),
    })
  }
}

/**
 * An admin resource's index/show/store/update/destroy: each validates with its contract's
 * validator, calls the service with the caller, and answers `present(row)` (201 on store, 204 on
 * destroy). The rules (checks, audit row, 404) are the service's.
 */
export abstract class CrudController<
  Row,
  Service extends CrudService<Row> = CrudService<Row>,
> extends ListController<Row, Service> {
  /** The transformer's variant for the answers about one row (default: `toObject`). */
  protected variant?: string

  protected present(row: Row): ItemContract<any, any, any> {
    const item = this.transformer.transform(row)
    // The variant is a method of the subclass's own transformer (checked when it serializes).
    return this.variant ? item.useVariant(this.variant as never) : item
  }

  async show(ctx: HttpContext) {
    return ctx.serialize(this.present(await this.service.show(ctx.params.id, actorOf(ctx))))
  }

  async store(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(this.validator('store'))
    const row = await this.service.create(actorOf(ctx), data)
    ctx.response.status(201)
    return ctx.serialize(this.present(row))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(this.validator('update'))
    return ctx.serialize(this.present(await this.service.update(actorOf(ctx), ctx.params.id, data)))
  }

  async destroy(ctx: HttpContext) {
    await this.service.destroy(actorOf(ctx), ctx.params.id)
    return ctx.response.noContent()
  }
}
