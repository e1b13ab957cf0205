import { Settings } from 'luxon'
import { HttpContext } from '@adonisjs/core/http'
import {
  BaseSerializer,
  BaseTransformer,
  Collection,
  Item,
  Maybe,
  Paginator,
  tracingChannels,
} from '@adonisjs/core/transformers'
import { RuntimeException } from '@adonisjs/core/exceptions'
import type { Operation } from '#openapi/contract'
import { pageMetaSchema, s } from '#openapi/schema'
import { STRINGIFY, type Stringify, compileStringify } from '#core/compiled_json'
import type {
  CollectionContract,
  ItemContract,
  PaginatorContract,
  ResourceDataTypes,
  UnpackAsTopLevelCollection,
  UnpackAsTopLevelItem,
  UnpackAsTopLevelPaginator,
  UnpackTopLevelValues,
} from '@adonisjs/core/types/transformers'

/**
 * Pagination block of every paged list (README.md, "HTTP API"):
 * `meta: { total, pageNum, pageSize, lastPage }`.
 */
export type PageMeta = { total: number; pageNum: number; pageSize: number; lastPage: number }

export function pageMeta(total: number, pageNum: number, pageSize: number): PageMeta {
  return { total, pageNum, pageSize, lastPage: Math.max(1, Math.ceil(total / pageSize)) }
}

/**
 * Success bodies are `{ data }`; paginated ones `{ data, meta }`.
 */
class ApiSerializer extends BaseSerializer<{ Wrap: 'data'; PaginationMetaData: PageMeta }> {
  wrap: 'data' = 'data'

  definePaginationMetaData(metaData: unknown): PageMeta {
    const meta = metaData as PageMeta
    if (!meta || typeof meta.total !== 'number' || typeof meta.pageNum !== 'number') {
      throw new Error('Pagination metadata must be built with pageMeta()')
    }
    return {
      total: meta.total,
      pageNum: meta.pageNum,
      pageSize: meta.pageSize,
      lastPage: meta.lastPage,
    }
  }

  /**
   * The transformers package names the block `metadata`; the contract says `meta`. Transformers
   * whose method returns plain values are called directly (see plainOf); the body carries the
   * stringifier compiled from its route's contract (app/core/compiled_json.ts).
   */
  async serializeResponse(value: any, resolver: any, route: StoredRoute | null) {
    let stringify: Stringify | null = null
    if (route) {
      stringify = stringifiers.has(route) ? stringifiers.get(route)! : await stringifierOf(route)
    }
    const plain = plainOf(value)
    if (plain) {
      const body =
        'metadata' in plain
          ? { data: plain.data, meta: this.definePaginationMetaData(plain.metadata) }
          : { data: plain.data }
      return withStringify(body, stringify)
    }
    const body: any = await this.serialize(value, resolver)
    if (body && typeof body === 'object' && 'metadata' in body) {
      const { metadata, ...rest } = body
      return withStringify({ ...rest, meta: metadata }, stringify)
    }
    return withStringify(body, stringify)
  }
}

const withStringify = (body: any, stringify: Stringify | null) => {
  if (stringify && body && typeof body === 'object') body[STRINGIFY] = stringify
  return body
}

/**
 * The framework makes a RuntimeException in every `Transformer.transform()` / `paginate()` (to
 * report where an undefined item was given, the only use of it): made here only then.
 */
BaseTransformer.transform = function (this: any, data: any, ...rest: any[]) {
  const optional = data instanceof Maybe
  const value = optional ? data.value : data
  if (optional && value === undefined) return undefined
  if (Array.isArray(value))
    return new Collection([value, rest], this, 1, 'toObject', undefined as any)
  if (value === null) return null
  const error = value === undefined ? new RuntimeException() : undefined
  return new Item([value, rest], this, 1, 'toObject', error as any)
} as any
BaseTransformer.paginate = function (this: any, data: any, metaData: any, ...rest: any[]) {
  return new Paginator(
    new Collection([data, rest], this, 1, 'toObject', undefined as any),
    metaData
  )
} as any

/**
 * The body of an item, a list or a page without the framework's per-row machinery (a container
 * call, a traced promise and a copy per row), when that changes nothing: the transformer's method
 * takes no injected argument, no tracer listens, and each row's result is a plain object of plain
 * values (a nested Item/Collection/Paginator is the framework's to resolve). Otherwise undefined.
 */
function plainOf(value: unknown): { data: unknown; metadata?: unknown } | undefined {
  if (tracingChannels.transformerResolver.hasSubscribers) return
  if (value instanceof Paginator) {
    const data = plainOf(value.collection)
    return data && { data: data.data, metadata: value.metaData }
  }
  if (!(value instanceof Item) && !(value instanceof Collection)) return
  const { transformer, variant } = value as any
  const method = transformer.prototype[variant]
  if (typeof method !== 'function' || method.length > 0) return
  if (transformer.containerInjections?.[variant] || transformer.containerProvider) return
  const [resource, rest] = (value as any).transformerData as [any, any[]]
  if (value instanceof Item) {
    if (resource === undefined) return
    const row = plainRow(new transformer(resource, ...rest)[variant]())
    return row && { data: row }
  }
  const rows = new Array(resource.length)
  for (let i = 0; i < rows.length; i++) {
    rows[i] = plainRow(new transformer(resource[i], ...rest)[variant]())
    if (!rows[i]) return
  }
  return { data: rows }
}

function plainRow(row: any) {
  if (row === null || typeof row !== 'object' || Object.getPrototypeOf(row) !== Object.prototype) {
    return
  }
  for (const key in row) {
    const field = row[key]
    if (
      field instanceof Item ||
      field instanceof Collection ||
      field instanceof Paginator ||
      field instanceof Promise
    ) {
      return
    }
  }
  return row
}

type StoredRoute = { handler: unknown; pattern?: string; methods?: string[] }
const routeName = (route: StoredRoute) => `${route.methods?.[0] ?? ''} ${route.pattern ?? ''}`

/** By matched route: its success body's stringifier (null: no enveloped body declared). */
const stringifiers = new WeakMap<StoredRoute, Stringify | null>()

async function stringifierOf(route: StoredRoute): Promise<Stringify | null> {
  const handler = route.handler as { reference?: unknown; method?: string }
  let operation: Operation | undefined
  if (Array.isArray(handler.reference) && typeof handler.reference[0] === 'function') {
    const loaded = await handler.reference[0]()
    operation = (loaded?.default ?? loaded)?.contract?.[handler.method ?? 'handle']
  }
  const schema = !operation
    ? null
    : operation.page
      ? s.object({ data: s.array(operation.page), meta: pageMetaSchema })
      : operation.list
        ? s.object({ data: s.array(operation.list) })
        : operation.data
          ? s.object({ data: operation.data })
          : null
  // Named by its route (the functional suite's byte check counts bodies per route).
  const stringify = schema && Object.assign(compileStringify(schema), { route: routeName(route) })
  stringifiers.set(route, stringify)
  return stringify
}

/**
 * `ctx.serialize`, typed from the transformer it is given (as the v7 starter kit types it), with
 * the pagination block under `meta`.
 */
type Serialize = {
  <Page extends PaginatorContract<any, any, any>>(
    page: Page
  ): Promise<RenameMeta<UnpackAsTopLevelPaginator<Page, 'data', PageMeta>>>
  <Item extends ItemContract<any, any, any>>(
    item: Item
  ): Promise<UnpackAsTopLevelItem<Item, 'data'>>
  <List extends CollectionContract<any, any, any>>(
    list: List
  ): Promise<UnpackAsTopLevelCollection<List, 'data'>>
  <Data extends Record<string, ResourceDataTypes>>(
    data: Data
  ): Promise<{ data: UnpackTopLevelValues<Data> }>
  /** Plain data typed by an interface (no index signature), wrapped as it is. */
  <Data extends object>(data: Data): Promise<{ data: Data }>
}
type RenameMeta<Body> = Body extends { metadata: infer Meta }
  ? Omit<Body, 'metadata'> & { meta: Meta }
  : Body

declare module '@adonisjs/core/http' {
  export interface HttpContext {
    serialize: Serialize
  }
}

const serializer = new ApiSerializer()

HttpContext.instanceProperty('serialize', function (this: HttpContext, value: any) {
  return serializer.serializeResponse(value, this.containerResolver, this.route ?? null)
} as Serialize)

export default class ApiProvider {
  /** Dates are stored and compared in UTC whatever the host's zone. */
  register() {
    Settings.defaultZone = 'utc'
  }
}
