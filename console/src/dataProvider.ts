import type { DataProvider, RaRecord, SortPayload } from 'react-admin'
import { api } from './api'
import type { Resource } from './access'
import type { operations } from './api-types'

/**
 * react-admin's calls mapped to /api/admin/<resource>. Lists page with `pageNum`/`pageSize`
 * (at most 100 per page) and answer `{ data, meta: { total, ... } }`; filters are passed as query
 * parameters with the API's names (keyword, status, account, ...), the sort as `sort=field` or
 * `sort=-field` (only for the columns in SORTABLE). Updates send only the changed fields;
 * the linked sets (a user's roles, a role's menus) have their own endpoints and are sent there
 * when they changed.
 */
const path = (resource: string, id?: RaRecord['id']) =>
  id === undefined ? `admin/${resource}` : `admin/${resource}/${encodeURIComponent(String(id))}`

/** Sets written through their own endpoint: `PUT users/:id/roles`, `PUT roles/:id/menus`. */
const LINKS: Record<string, { field: string; endpoint: string }> = {
  users: { field: 'roleIds', endpoint: 'roles' },
  roles: { field: 'menuIds', endpoint: 'menus' },
}

/** The fields of a list's `sort` enum in the OpenAPI document (a column outside it fails the typecheck). */
type Sortable<O extends keyof operations> = readonly Exclude<
  NonNullable<operations[O]['parameters']['query']> extends { sort?: infer S } ? S : never,
  `-${string}`
>[]

/**
 * The columns each list sorts on request: within the server's per-resource allow-list (anything else is
 * a 422). Without a sort the server's own order holds (newest first for the logs).
 */
export const SORTABLE: { [R in Resource]?: readonly string[] } = {
  'users': [
    'id',
    'account',
    'nickname',
    'status',
    'lastLoginAt',
    'createdAt',
  ] satisfies Sortable<'admin.users.index'>,
  'roles': ['id', 'code', 'name', 'sort'] satisfies Sortable<'admin.roles.index'>,
  'dicts': ['id', 'code', 'name', 'status', 'createdAt'] satisfies Sortable<'admin.dicts.index'>,
  'params': ['id', 'key', 'type', 'updatedAt'] satisfies Sortable<'admin.params.index'>,
  'notices': [
    'id',
    'title',
    'level',
    'status',
    'publishedAt',
  ] satisfies Sortable<'admin.notices.index'>,
  'articles': ['id', 'title', 'category', 'publishedAt'] satisfies Sortable<'admin.articles.index'>,
  'login-logs': [
    'createdAt',
    'account',
    'ip',
    'outcome',
  ] satisfies Sortable<'admin.login_logs.index'>,
  'audit-logs': [
    'createdAt',
    'actor',
    'permission',
    'outcome',
  ] satisfies Sortable<'admin.audit_logs.index'>,
  'sessions': ['createdAt', 'lastSeenAt'] satisfies Sortable<'admin.sessions.index'>,
  'tokens': [
    'name',
    'createdAt',
    'expiresAt',
    'lastUsedAt',
  ] satisfies Sortable<'admin.api_tokens.index'>,
}

/**
 * A list's filters and sort as the API's query parameters (the export sends the same). A sort
 * on another column (react-admin's default `id` of a reference input) is not sent.
 */
export function listQuery(
  resource: string,
  filter: Record<string, unknown> = {},
  sort?: SortPayload
) {
  const allowed = SORTABLE[resource as Resource]?.includes(sort?.field ?? '')
  const sorted = allowed ? `${sort!.order === 'DESC' ? '-' : ''}${sort!.field}` : undefined
  return { ...filter, sort: sorted }
}

const sameSet = (a: unknown[] = [], b: unknown[] = []) =>
  a.length === b.length && a.every((value) => b.includes(value))

export const dataProvider: DataProvider = {
  async getList(resource, { pagination, filter, sort }) {
    const { page = 1, perPage = 25 } = pagination ?? {}
    const { data, meta } = await api<any[]>(path(resource), {
      query: {
        ...listQuery(resource, filter, sort),
        pageNum: page,
        pageSize: Math.min(perPage, 100),
      },
    })
    return { data, total: meta?.total ?? data.length }
  },

  async getOne(resource, { id }) {
    return { data: (await api(path(resource, id))).data }
  },

  async getMany(resource, { ids }) {
    const records = await Promise.all(ids.map((id) => api(path(resource, id))))
    return { data: records.map((record) => record.data) }
  },

  async getManyReference(resource, params) {
    return dataProvider.getList(resource, {
      ...params,
      filter: { ...params.filter, [params.target]: params.id },
    })
  },

  async create(resource, { data }) {
    // An input left empty is not sent: the API reads "" and null as a value (its document says
    // which fields may be null), and a new record has nothing to clear.
    const filled = Object.fromEntries(
      Object.entries(data).filter(([, value]) => value !== '' && value !== null)
    )
    return { data: (await api(path(resource), { method: 'POST', body: filled })).data }
  },

  async update(resource, { id, data, previousData }) {
    const link = LINKS[resource]
    const changed: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(data)) {
      if (key === link?.field || key === 'id') continue
      if (JSON.stringify(value) !== JSON.stringify(previousData?.[key])) changed[key] = value
    }
    let record = previousData
    if (Object.keys(changed).length > 0) {
      record = (await api(path(resource, id), { method: 'PUT', body: changed })).data
    }
    if (link && data[link.field] && !sameSet(data[link.field], previousData?.[link.field])) {
      await api(`${path(resource, id)}/${link.endpoint}`, {
        method: 'PUT',
        body: { [link.field]: data[link.field] },
      })
      record = (await api(path(resource, id))).data
    }
    return { data: record as any }
  },

  async updateMany(resource, { ids, data }) {
    for (const id of ids) await api(path(resource, id), { method: 'PUT', body: data })
    return { data: ids }
  },

  async delete(resource, { id, previousData }) {
    await api(path(resource, id), { method: 'DELETE' })
    return { data: (previousData ?? { id }) as any }
  },

  async deleteMany(resource, { ids }) {
    for (const id of ids) await api(path(resource, id), { method: 'DELETE' })
    return { data: ids }
  },
}
