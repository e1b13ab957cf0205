import pg from 'pg'
import db from '@adonisjs/lucid/services/db'
import { cache, versionedCache } from '#core/cache'
import { preparedQuery } from '#core/prepared_query'
import type { ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import User from '#models/user'
import Role from '#models/role'
import { DERIVED_FROM, withAccountFields } from '#models/mixins/account_fields'
import { roleSummary } from '#resources/roles'
import { type RoleSummaryFields, type ShownUser, user } from '#resources/users'

/*
| THE USERS LIST'S READ (docs/performance.md, "The figures"): a page of accounts as plain rows,
| not models (Lucid's hydration, a proxy per row and a deep copy of every attribute, was most of
| the list's CPU). Per request, whatever the page size: ONE statement for the page (each
| account's role ids, and the versions that say whether what is held in memory still holds),
| and one for the lock state of the whole page (UserService). The total and the role summaries
| come from memory, read again only when their version has moved:
| - the total, per (scope, filters) and users version (database/migrations/*_users_version.ts);
| - the role summaries, per access version (bumped by every write to roles).
| What a page costs in node beside that: the statement's text compiled by knex once per query key
| (pageStatement), only the columns the answer needs (USER_COLUMNS), dates as ISO text cut from
| PostgreSQL's own (isoOf), no luxon, no model.
*/

const USERS_VERSION = '(SELECT version FROM users_version WHERE id = 1)'
const ACCESS_VERSION = '(SELECT version FROM access_version WHERE id = 1)'

/** A plain row's prototype: the model's derived fields (app/models/mixins/account_fields.ts). */
class AccountRow extends withAccountFields(class {}) {}

/** SQLite's text of an instant (UTC), as Lucid writes it and luxon's `fromSQL` reads it. */
const SQL_INSTANT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,3}))?$/

/**
 * PostgreSQL's text of a `timestamptz` in UTC (the session's TimeZone), four-digit year:
 * `2026-03-04 05:06:07.089123+00`. pg's parser makes a Date of it, truncating the fraction to
 * milliseconds: the ISO text of that Date is cut from the text itself.
 */
const PG_UTC_INSTANT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.(\d{1,6}))?\+00$/
const TIMESTAMPTZ = 1184
const parsePgInstant = pg.types.getTypeParser(TIMESTAMPTZ, 'text')
/** The page's `timestamptz` columns as text (this statement only): see PG_UTC_INSTANT. */
const INSTANTS_AS_TEXT = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ ? (text: string) => text : pg.types.getTypeParser(oid, format as 'text'),
}

/**
 * A date column's value as its answer writes it (luxon's `toJSON` in UTC: the ISO text of a JS
 * Date) without building a DateTime: from PostgreSQL's Date, or its text (`pgText`: read with
 * INSTANTS_AS_TEXT), or SQLite's text when it reads back as the same instant. Anything else (and
 * an empty value) as the model's `consume` gives it.
 */
function isoOf(value: unknown, pgText: boolean): string | undefined {
  let instant: Date
  let text: string | undefined
  if (value instanceof Date) instant = value
  else if (typeof value !== 'string') return undefined
  else if (pgText) {
    const utc = PG_UTC_INSTANT.exec(value)
    if (!utc) return isoOf(parsePgInstant(value), false)
    const ms = utc[1] === undefined ? '000' : utc[1].padEnd(3, '0').slice(0, 3)
    return `${value.slice(0, 10)}T${value.slice(11, 19)}.${ms}Z`
  } else {
    const parts = SQL_INSTANT.exec(value)
    if (!parts) return undefined
    text = `${parts[1]}T${parts[2]}.${(parts[3] ?? '').padEnd(3, '0')}Z`
    instant = new Date(text)
  }
  if (Number.isNaN(instant.getTime())) return undefined
  const iso = instant.toISOString()
  // Four-digit years only (luxon writes others its own way); a text must read back unchanged.
  return iso.length === 24 && (text === undefined || iso === text) ? iso : undefined
}

type Column = { property: string; name: string; date: boolean; consume?: (...args: any[]) => any }

/** What a model maps of `names` (column names), once: each column's property and conversion. */
function columnsOf(model: typeof User | typeof Role, names?: Iterable<string>) {
  const wanted = names && new Set(names)
  const columns: Column[] = []
  for (const [property, column] of model.$columnsDefinitions) {
    if (wanted && !wanted.has(column.columnName)) continue
    const date = column.meta?.type === 'datetime'
    columns.push({ property, name: column.columnName, date, consume: column.consume })
  }
  return columns
}

/**
 * Columns as the model holds them: its `consume` applied (booleans, counts); dates as the ISO
 * text the answer writes (isoOf), or a luxon DateTime where that does not apply.
 */
function consumed(columns: Column[], raw: Record<string, unknown>, into: object, pgText = false) {
  const target = into as Record<string, unknown>
  for (const column of columns) {
    const value = raw[column.name]
    if (value === undefined && !(column.name in raw)) continue
    const iso = value && column.date ? isoOf(value, pgText) : undefined
    if (iso !== undefined) {
      target[column.property] = iso
      continue
    }
    // What pg's own parser would have given (a Date) for PostgreSQL's text of an instant.
    const held = pgText && column.date && typeof value === 'string' ? parsePgInstant(value) : value
    target[column.property] = column.consume ? column.consume(held, column.property, into) : held
  }
  return into
}

/** Each account's role ids, as one text column: `1,2` (no role: null). */
const roleIdsColumn = (dialect: string) =>
  `(SELECT ${dialect === 'postgres' ? "string_agg(CAST(ur.role_id AS TEXT), ',')" : 'group_concat(ur.role_id)'}
     FROM user_roles ur WHERE ur.user_id = users.id)`

type Summary = RoleSummaryFields & { sort: number }
/** The summaries of every role (what the transformer picks, and `sort`) at one access version. */
const summaries = versionedCache<'roles', Map<number, Summary>>('role-summaries', { max: 1 })
const SUMMARY_COLUMNS = [...roleSummary.keys, 'sort'].map((key) => Role.$getColumn(key)!.columnName)
const ROLE_COLUMNS = columnsOf(Role, SUMMARY_COLUMNS)
/**
 * The account columns a row of the answer needs: the fields the transformer picks (`user.keys`),
 * a derived field by the columns it reads. Not the password digest, tokenVersion and the rest.
 */
const USER_COLUMNS = columnsOf(
  User,
  user.keys.flatMap((key) =>
    (key in DERIVED_FROM ? DERIVED_FROM[key as keyof typeof DERIVED_FROM] : [key]).map((field) => {
      const column = User.$getColumn(field)
      if (!column) throw new Error(`the users list reads ${field}: not a column of User`)
      return column.columnName
    })
  )
)

/** The role summaries at access `version`: from memory, or read with the version they are at. */
async function summariesAt(version: number) {
  const held = summaries.get('roles', version)
  if (held) return held
  const rows = await db
    .from('roles')
    .select(...SUMMARY_COLUMNS, db.raw(`${ACCESS_VERSION} AS access_version`))
  const byId = new Map(
    rows.map((row) => [row.id as number, consumed(ROLE_COLUMNS, row, {}) as Summary])
  )
  // Read in one statement with its version: held under that one (the page's, or a later one).
  if (rows.length) summaries.set('roles', byId, Number(rows[0].access_version))
  return byId
}

/**
 * An account of the page: the columns its answer needs, its derived fields, its roles (in the
 * order every answer lists them: sort, id) and room for the lock state. The transformer picks
 * from it as from a model.
 */
function userRowOf(
  raw: Record<string, unknown>,
  roles: Map<number, Summary>,
  pgText: boolean
): ShownUser {
  const row = consumed(USER_COLUMNS, raw, new AccountRow(), pgText) as ShownUser
  const held: Summary[] = []
  if (raw.role_ids) {
    // A role deleted between the page and a late read of the summaries is left out.
    for (const id of String(raw.role_ids).split(',')) {
      const role = roles.get(Number(id))
      if (role) held.push(role)
    }
    if (held.length > 1) held.sort((a, b) => a.sort - b.sort || a.id - b.id)
  }
  row.roles = held
  row.$extras = {}
  return row
}

/** Totals by (viewer's scope, filters), each with the users version it was counted at. */
const totals = versionedCache<string, number>('user-list-totals', { max: 1000 })

type Query = ModelQueryBuilderContract<typeof User, User>

/**
 * What a page is read from: the list query (UserService.query: data scope, filters, order), built
 * only when needed, and the keys of what it matches: `key` (scope and filters: its total) and
 * `order`. The query is built from these alone, so its text and values are too.
 */
export type ListQuery = { query: () => Query; key: string; order: string | undefined }

/**
 * The page statement's text and its values before LIMIT / OFFSET, per query key (and whether an
 * OFFSET is written: knex leaves out `offset 0`): compiled by knex once, not per request. A pure
 * function of the key, so it cannot go stale; the page size and offset are bound per request.
 */
type Compiled = { sql: string; bindings: unknown[] }
const statements = cache<string, Compiled>('user-list-statements', { max: 1000 })

function pageStatement(list: ListQuery, offset: number, limit: number): Compiled {
  const paged = offset > 0
  const key = `${paged ? 'paged' : 'first'} ${list.order ?? ''} ${list.key}`
  let held = statements.get(key)
  if (!held) {
    const query = list.query()
    const { sql, bindings } = query
      .select(
        ...USER_COLUMNS.map((column) => `users.${column.name}`),
        db.raw(`${roleIdsColumn(query.client.dialect.name)} AS role_ids`),
        db.raw(`${USERS_VERSION} AS users_version`),
        db.raw(`${ACCESS_VERSION} AS access_version`)
      )
      .offset(offset)
      .limit(limit)
      .toSQL()
    // knex binds LIMIT, then OFFSET, last: those are the per-request values.
    const tail = paged ? [limit, offset] : [limit]
    const rest = bindings.slice(0, bindings.length - tail.length)
    if (tail.some((value, i) => bindings[rest.length + i] !== value)) {
      throw new Error('the users list statement does not end with its LIMIT / OFFSET values')
    }
    held = { sql, bindings: rest }
    statements.set(key, held)
  }
  const values = paged ? [...held.bindings, limit, offset] : [...held.bindings, limit]
  return { sql: held.sql, bindings: values }
}

/**
 * Page `pageNum` of the list query, as rows the transformer reads, and the total. Its total is
 * counted once per `key` and users version, which triggers bump on every write that can change it.
 * The page is sent unnamed, as knex sent it: PostgreSQL plans it with its values every time.
 */
export async function readPage(list: ListQuery, pageNum: number, pageSize: number) {
  const offset = (pageNum - 1) * pageSize
  const page = pageStatement(list, offset, pageSize)
  const client = db.connection()
  const raws = await preparedQuery<Record<string, unknown>>(page.sql, page.bindings, {
    client,
    named: false,
    types: INSTANTS_AS_TEXT,
  })
  const pgText = client.dialect.name === 'postgres'
  const roles = raws.length ? await summariesAt(Number(raws[0].access_version)) : new Map()
  const rows = raws.map((raw) => userRowOf(raw, roles, pgText))

  // A short page that is not past the end holds the last matches: the total without counting.
  if (rows.length < pageSize && (rows.length > 0 || offset === 0)) {
    return { rows, total: offset + rows.length }
  }
  const version = raws.length ? Number(raws[0].users_version) : null
  const cached = version === null ? undefined : totals.get(list.key, version)
  if (cached !== undefined) return { rows, total: cached }

  const [counted] = await list
    .query()
    .clearOrder()
    .clearSelect()
    .select(db.raw('COUNT(*) AS total'), db.raw(`${USERS_VERSION} AS users_version`))
    .pojo<{ total: number | string; users_version: number | string }>()
  const total = Number(counted.total)
  // Counted in one statement with the version it read: held under that version.
  totals.set(list.key, total, Number(counted.users_version))
  return { rows, total }
}
