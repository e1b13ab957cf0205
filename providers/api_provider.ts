import { Settings } from 'luxon'
import { HttpContext } from '@adonisjs/core/http'
import { BaseSerializer } from '@adonisjs/core/transformers'
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

  /** The transformers package names the block `metadata`; the contract says `meta`. */
  async serializeResponse(value: any, resolver: any) {
    const body: any = await this.serialize(value, resolver)
    if (body && typeof body === 'object' && 'metadata' in body) {
      const { metadata, ...rest } = body
      return { ...rest, meta: metadata }
    }
    return body
  }
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
  return serializer.serializeResponse(value, this.containerResolver)
} as Serialize)

export default class ApiProvider {
  /** Dates are stored and compared in UTC whatever the host's zone. */
  register() {
    Settings.defaultZone = 'utc'
  }
}
