/*
| The hand-written reference of issue 52: what the project's hot paths cost without a framework.
| Plain node:http and pg, no import from app/. It serves over the bench's database, with the
| statements the project sends (same texts, named the same way, the same reads shared between
| concurrent requests) and the same results held in memory, byte-identical answers:
|   GET /api/health                  readiness: `SELECT 1 + 1 AS result`, a healthy run reused 1 s
|   GET /api/articles?pageNum&pageSize  the public list (no keyword, category or sort: 501)
|   GET /api/articles/:slug          the public detail (ETag, Cache-Control, 304)
|   GET /api/auth/me                 for a JWT the project issued (not a super admin's: 501)
|   GET /api/admin/users?pageNum&pageSize  a scoped viewer's page (no filter, sort, `all` scope)
| Its headers are the project's (security headers, a request id); no access log or metrics (at
| LOG_LEVEL=warn the project logs no request either, but counts each in its metrics). Error
| bodies other than the detail's 404 are not the project's. Written as a lean server by
| hand would be: caches are plain Maps bounded by entries (oldest out), keyed by the request's
| parameters. DB_QUERY_EVENTS=true adds `x-db-queries` as the project's does: the statements a
| request sent, a shared one counting for the request that sent it. Run by `npm run bench --
| --reference` (bench/baseline.ts), which strips the types to JS once and starts it as `npm start`
| starts the project. Environment: the project's (PORT, HOST, PG_*, JWT_*, PASSWORD_MAX_AGE_DAYS,
| AUTH_REQUIRE_2FA, PG_POOL_MAX, PUBLIC_POOL_MAX, PUBLIC_STATEMENT_TIMEOUT_MS).
*/
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import pg from 'pg'

const env = process.env
const connection = {
  host: env.PG_HOST ?? '127.0.0.1',
  port: Number(env.PG_PORT ?? 5432),
  user: env.PG_USER ?? 'postgres',
  password: env.PG_PASSWORD ?? '',
  database: env.PG_DB_NAME ?? 'adonis_rbac',
  // knex's pool (tarn) keeps an idle connection 30 s, and with it its prepared statements.
  idleTimeoutMillis: 30_000,
}
const pool = new pg.Pool({ ...connection, max: Number(env.PG_POOL_MAX ?? 10) })
const publicPool = new pg.Pool({
  ...connection,
  max: Number(env.PUBLIC_POOL_MAX ?? 4),
  application_name: 'public',
  statement_timeout: Number(env.PUBLIC_STATEMENT_TIMEOUT_MS ?? 2000),
})
const COUNT = env.DB_QUERY_EVENTS === 'true'

type Counter = { queries: number }
type Row = Record<string, any>
type Res = ServerResponse & { counter?: Counter }
type Statement = { text: string; name?: string }
/** A `?` text as PostgreSQL takes it, named (prepared once per connection) as the project names it. */
function statement(text: string, named = true): Statement {
  let n = 0
  const name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`
  return { text: text.replace(/\?/g, () => `$${++n}`), name: named ? name : undefined }
}
async function sql(on: pg.Pool, counter: Counter, { text, name }: Statement, values: unknown[]) {
  counter.queries++
  return (await on.query({ text, values, name })).rows as Row[]
}

/**
 * A read shared by the requests that asked while none was on its way (the project's FreshReads):
 * a request joins the batch not yet sent, so it still sees every write committed before it asked.
 */
class SharedReads<V> {
  inFlight?: Promise<unknown>
  next?: { keys: Set<string>; result: Promise<Map<string, V>> }
  readMany: (keys: string[], counter: Counter) => Promise<Map<string, V>>
  constructor(readMany: SharedReads<V>['readMany']) {
    this.readMany = readMany
  }
  async get(key: string, counter: Counter) {
    let result: Promise<Map<string, V>>
    if (this.next) {
      this.next.keys.add(key)
      result = this.next.result
    } else if (!this.inFlight) {
      result = this.send([key], counter)
    } else {
      const next = { keys: new Set([key]), result: undefined as unknown as Promise<Map<string, V>> }
      const sendNext = () => {
        this.next = undefined
        return this.send([...next.keys], counter)
      }
      next.result = this.inFlight.then(sendNext, sendNext)
      this.next = next
      result = next.result
    }
    return (await result).get(key)
  }
  send(keys: string[], counter: Counter) {
    const read = this.readMany(keys, counter)
    this.inFlight = read
    const done = () => this.inFlight === read && (this.inFlight = undefined)
    read.then(done, done)
    return read
  }
}

/** A Map bounded in entries, the oldest out first. */
function hold<K, V>(map: Map<K, V>, key: K, value: V, max: number) {
  map.delete(key)
  if (map.size >= max) map.delete(map.keys().next().value!)
  map.set(key, value)
}

// ---------------------------------------------------------------- readiness
let healthyAt = -Infinity
const OK = Buffer.from('{"data":{"status":"ok"}}')
const UNAVAILABLE = Buffer.from(
  '{"errors":[{"code":"E_UNAVAILABLE","message":"The service is temporarily unavailable"}]}'
)
async function health(res: Res, counter: Counter) {
  if (Date.now() - healthyAt >= 1000) {
    try {
      counter.queries++
      await pool.query('SELECT 1 + 1 AS result')
      healthyAt = Date.now()
    } catch {
      return send(res, 503, UNAVAILABLE, { 'cache-control': 'no-store' })
    }
  }
  send(res, 200, OK, { 'cache-control': 'no-store' })
}

// ---------------------------------------------------------------- public articles
const VERSION_SQL = statement('SELECT version FROM articles_version WHERE id = 1')
const articlesVersion = new SharedReads<number>(async (_keys, counter) => {
  const [row] = await sql(publicPool, counter, VERSION_SQL, [])
  return new Map([['', Number(row.version)]])
})
/** The public fields (the project's publicArticle shape) and the columns they are read from. */
const LIST_FIELDS = [
  'slug',
  'title',
  'summary',
  'category',
  'coverUrl',
  'authorName',
  'publishedAt',
  'updatedAt',
]
const DETAIL_FIELDS = [...LIST_FIELDS, 'content']
const columnOf = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
const LIST_COLUMNS = LIST_FIELDS.map((key) =>
  key === 'authorName' ? 'u.nickname AS author_name' : `a.${columnOf(key)}`
).join(', ')
const VISIBLE = `a.status = 'published' AND a.published_at <= ?`
const PAGE_SQL = statement(`SELECT p.* FROM (
         SELECT ${LIST_COLUMNS}, a.id, 0 AS is_meta, CAST(NULL AS BIGINT) AS version,
                CAST(NULL AS TIMESTAMPTZ) AS changed_at,
                CAST(NULL AS TIMESTAMPTZ) AS last_due,
                CAST(NULL AS TIMESTAMPTZ) AS next_due
           FROM articles a LEFT JOIN users u ON u.id = a.author_id
          WHERE ${VISIBLE}
          ORDER BY a.published_at DESC, a.id DESC
          LIMIT ? OFFSET ?) p
       UNION ALL
       SELECT ${LIST_FIELDS.map(() => 'NULL').join(', ')}, NULL, 1, v.version, v.changed_at,
              (SELECT MAX(a.published_at) FROM articles a WHERE ${VISIBLE}),
              (SELECT MIN(a.published_at) FROM articles a
                WHERE a.status = 'published' AND a.published_at > ?)
         FROM articles_version v WHERE v.id = 1
       ORDER BY is_meta, published_at DESC, id DESC`)
const MAX_PAGE_WINDOW = 10_000
const COUNT_SQL = statement(`SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM articles a
                WHERE ${VISIBLE} ORDER BY a.published_at DESC, a.id DESC LIMIT ${MAX_PAGE_WINDOW}) capped) AS total,
              v.version
         FROM articles_version v WHERE v.id = 1`)
const DETAIL_SQL = statement(`SELECT ${LIST_COLUMNS}, a.content,
              (SELECT version FROM articles_version WHERE id = 1) AS articles_version
         FROM articles a LEFT JOIN users u ON u.id = a.author_id
        WHERE ${VISIBLE} AND a.slug = ?`)
/** An answer held: the bytes, their strong ETag, the version and time it is good for. */
type Answer = { body: Buffer; etag: string; lastModified?: string; version: number; until: number }
const TTL_MS = 10_000
const pages = new Map<string, Answer>()
const details = new Map<string, Answer>()
let count: { version: number; total: number; until: number } | undefined

function answer(json: string, version: number, until: number, lastModified?: Date): Answer {
  const etag = `"${createHash('sha256').update(json).digest('base64url')}"`
  const body = Buffer.from(json)
  return { body, etag, lastModified: lastModified?.toUTCString(), version, until }
}
/** A held answer while its version is the database's (read only when one is held). */
async function current(map: Map<string, Answer>, key: string, counter: Counter) {
  const held = map.get(key)
  if (!held) return
  if (Date.now() >= held.until) return void map.delete(key)
  if (held.version === (await articlesVersion.get('', counter))) return held
}
const iso = (value: Date) => value.toISOString()
const publicOf = (row: Row, keys: string[]) => {
  const out: Row = {}
  for (const key of keys) {
    const column = columnOf(key)
    out[key] = column.endsWith('_at') ? iso(row[column]) : row[column]
  }
  return out
}

async function list(url: URL, req: IncomingMessage, res: Res, counter: Counter) {
  const q = url.searchParams
  if (['keyword', 'category', 'sort'].some((name) => q.get(name))) return notServed(res)
  const pageNum = positive(q.get('pageNum'), 1)
  const pageSize = positive(q.get('pageSize'), 10)
  if (!pageNum || !pageSize || pageSize > 50 || pageNum * pageSize > MAX_PAGE_WINDOW) {
    return send(res, 422, Buffer.from('{"errors":[{"code":"E_VALIDATION_ERROR"}]}'), {})
  }
  const key = `${pageNum} ${pageSize}`
  let held = await current(pages, key, counter)
  if (!held) {
    const now = Date.now()
    const clock = new Date(now).toISOString()
    const offset = (pageNum - 1) * pageSize
    const result = await sql(publicPool, counter, PAGE_SQL, [clock, pageSize, offset, clock, clock])
    const meta = result.pop()!
    const version = Number(meta.version)
    const validUntil = meta.next_due === null ? Infinity : meta.next_due.getTime()
    let total: number
    let cacheable = true
    if (result.length < pageSize && (result.length > 0 || offset === 0)) {
      total = offset + result.length
    } else if (count && count.version === version && now < count.until) {
      total = count.total
    } else {
      const [row] = await sql(publicPool, counter, COUNT_SQL, [clock])
      total = Number(row.total)
      cacheable = Number(row.version) === version
      if (cacheable) count = { version, total, until: validUntil }
    }
    const lastPage = Math.max(
      1,
      Math.min(Math.ceil(total / pageSize), Math.floor(MAX_PAGE_WINDOW / pageSize))
    )
    const data = result.map((row) => publicOf(row, LIST_FIELDS))
    const lastDue = meta.last_due === null ? 0 : meta.last_due.getTime()
    const changed = new Date(Math.max(meta.changed_at.getTime(), lastDue))
    const json = JSON.stringify({ data, meta: { total, pageNum, pageSize, lastPage } })
    held = answer(json, version, Math.min(now + TTL_MS, validUntil), changed)
    if (cacheable && held.until > now) hold(pages, key, held, 500)
  }
  publicAnswer(req, res, held)
}

async function detail(slug: string, req: IncomingMessage, res: Res, counter: Counter) {
  // eslint-disable-next-line no-control-regex
  if (!slug || slug.length > 160 || /[\u0000-\u001f\u007f]/.test(slug)) {
    return send(res, 422, Buffer.from('{"errors":[{"code":"E_VALIDATION_ERROR"}]}'), {})
  }
  let held = await current(details, slug, counter)
  if (!held) {
    const clock = new Date().toISOString()
    const [row] = await sql(publicPool, counter, DETAIL_SQL, [clock, slug])
    if (!row) return send(res, 404, NOT_FOUND, {})
    const json = JSON.stringify({ data: publicOf(row, DETAIL_FIELDS) })
    held = answer(json, Number(row.articles_version), Date.now() + TTL_MS)
    hold(details, slug, held, 1000)
  }
  publicAnswer(req, res, held)
}
const NOT_FOUND = Buffer.from('{"errors":[{"code":"E_NOT_FOUND","message":"Article not found"}]}')

function publicAnswer(req: IncomingMessage, res: ServerResponse, held: Answer) {
  const headers: Record<string, string> = {
    'cache-control': 'public, max-age=30',
    'etag': held.etag,
  }
  if (held.lastModified) headers['last-modified'] = held.lastModified
  const match = req.headers['if-none-match']
  const since = req.headers['if-modified-since']
  const fresh = match
    ? match === '*' || match.split(/\s*,\s*/).includes(held.etag)
    : since !== undefined &&
      !!held.lastModified &&
      Date.parse(held.lastModified) <= Date.parse(since)
  if (fresh) return send(res, 304, undefined, headers)
  send(res, 200, held.body, headers)
}

// ---------------------------------------------------------------- /api/auth/me
const JWT_KEY = Buffer.from(env.JWT_SECRET ?? '', 'utf8')
const ISSUER = env.JWT_ISSUER ?? 'adonis-rbac'
const AUDIENCE = env.JWT_AUDIENCE ?? 'adonis-rbac-admin'
const TTL_S = seconds(env.JWT_TTL ?? '2h')
const HEADER_SEGMENT = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.`
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/
const MAX_AGE_DAYS = Math.max(0, Number(env.PASSWORD_MAX_AGE_DAYS ?? 0))
const REQUIRE_2FA = env.AUTH_REQUIRE_2FA ?? 'none'
type Claims = { userId: number; tokenVersion: number; sessionId: string; until: number }
const verified = new Map<string, Claims>()

function seconds(text: string) {
  const [, n, unit] = /^(\d+)\s*([smhd]?)$/.exec(text) ?? ['', text, 's']
  return Number(n) * ({ s: 1, m: 60, h: 3600, d: 86_400 }[unit || 's'] ?? 1)
}

/** HS256 with the project's secret, its header, issuer, audience, lifetime and claim shapes. */
function verify(token: string): Claims | undefined {
  const dot = token.lastIndexOf('.')
  if (!token.startsWith(HEADER_SEGMENT) || dot <= HEADER_SEGMENT.length) return
  const expected = createHmac('sha256', JWT_KEY).update(token.slice(0, dot)).digest()
  const given = Buffer.from(token.slice(dot + 1), 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return
  let p: Row
  try {
    p = JSON.parse(Buffer.from(token.slice(HEADER_SEGMENT.length, dot), 'base64url').toString())
  } catch {
    return
  }
  const now = Date.now() / 1000
  const userId = Number(p.sub)
  if (p.iss !== ISSUER || (Array.isArray(p.aud) ? !p.aud.includes(AUDIENCE) : p.aud !== AUDIENCE))
    return
  if (typeof p.exp !== 'number' || typeof p.iat !== 'number' || p.exp <= now - 5) return
  if (now - p.iat - 5 > TTL_S || p.iat > now + 5) return
  if (!(userId > 0 && userId <= 2_147_483_647) || String(userId) !== p.sub) return
  if (!Number.isSafeInteger(p.tokenVersion) || p.tokenVersion < 0) return
  if (typeof p.jti !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(p.jti)) return
  const until = (Math.min(p.exp, p.iat + TTL_S) + 5) * 1000
  return { userId, tokenVersion: p.tokenVersion, sessionId: p.jti, until }
}

/** The project's User model columns, in its order (the guard selects them all). */
const USER_COLUMNS = `created_at updated_at id account nickname email email_verified_at password
  status dept_id token_version last_login_at last_login_ip previous_login_at previous_login_ip
  failed_logins failed_before_login two_factor_confirmed_at passkey_count password_change_required
  password_changed_at avatar_etag`.split(/\s+/)
const GUARD_SQL = statement(`SELECT b.pair, ${USER_COLUMNS.map((c) => `users.${c}`).join(', ')},
       (SELECT version FROM access_version WHERE id = 1) AS access_version,
       s.expires_at AS session_expires_at, s.ended_at AS session_ended_at,
       s.last_seen_at AS session_last_seen_at
  FROM unnest(?::int[], ?::text[]) WITH ORDINALITY AS b(user_id, session_id, pair)
  JOIN users ON users.id = b.user_id
  LEFT JOIN admin_sessions s ON s.id = b.session_id AND s.user_id = users.id`)
const pgArray = (values: string[]) =>
  `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`
const guardReads = new SharedReads<Row>(async (pairs, counter) => {
  const split = pairs.map((pair) => pair.split(' '))
  const rows = await sql(pool, counter, GUARD_SQL, [
    pgArray(split.map(([user]) => user)),
    pgArray(split.map(([, session]) => session)),
  ])
  return new Map(rows.map((row) => [pairs[Number(row.pair) - 1], row]))
})

const SNAPSHOT_SQL = statement(`
WITH RECURSIVE granted AS (
  SELECT m.id, m.parent_id, m.type, m.name, m.path, m.component, m.icon, m.permission, m.sort, m.visible
    FROM menus m
   WHERE m.status = 'enabled'
     AND (
       EXISTS (SELECT 1 FROM user_roles ur
                 JOIN roles r ON r.id = ur.role_id
                WHERE ur.user_id = ? AND r.status = 'enabled' AND r.code = ?)
       OR m.id IN (SELECT rm.menu_id FROM role_menus rm
                     JOIN user_roles ur ON ur.role_id = rm.role_id
                     JOIN roles r ON r.id = rm.role_id
                    WHERE ur.user_id = ? AND r.status = 'enabled')
     )
), effective AS (
  SELECT g.* FROM granted g WHERE g.parent_id IS NULL
  UNION ALL
  SELECT g.* FROM granted g JOIN effective e ON g.parent_id = e.id
), scope_roles AS (
  SELECT r.id, r.data_scope FROM roles r
    JOIN user_roles ur ON ur.role_id = r.id
   WHERE ur.user_id = ? AND r.status = 'enabled'
), below AS (
  SELECT d.id FROM depts d
   WHERE d.id = ? AND EXISTS (SELECT 1 FROM scope_roles sr WHERE sr.data_scope = 'dept_and_children')
  UNION
  SELECT d.id FROM depts d JOIN below b ON d.parent_id = b.id
), seen AS (
  SELECT b.id FROM below b
  UNION
  SELECT d.id FROM depts d
   WHERE d.id = ? AND EXISTS (SELECT 1 FROM scope_roles sr WHERE sr.data_scope = 'dept')
  UNION
  SELECT rd.dept_id AS id FROM role_depts rd
    JOIN scope_roles sr ON sr.id = rd.role_id
   WHERE sr.data_scope = 'custom'
)
SELECT 'role' AS kind, r.id, NULL AS parent_id, NULL AS type, r.code, r.name, NULL AS path,
       NULL AS component, NULL AS icon, NULL AS permission, r.sort, NULL AS visible, r.status,
       r.data_scope
  FROM roles r
  JOIN user_roles ur ON ur.role_id = r.id
 WHERE ur.user_id = ?
UNION ALL
SELECT 'menu' AS kind, e.id, e.parent_id, e.type, NULL AS code, e.name, e.path, e.component,
       e.icon, e.permission, e.sort, e.visible, NULL AS status, NULL AS data_scope
  FROM effective e
 WHERE e.type <> 'button'
UNION ALL
SELECT 'buttons' AS kind, NULL AS id, NULL AS parent_id, NULL AS type,
       string_agg(CAST(e.id AS TEXT) || ':' || COALESCE(e.permission, ''), chr(31)) AS code, NULL AS name, NULL AS path, NULL AS component, NULL AS icon,
       NULL AS permission, 0 AS sort, NULL AS visible, NULL AS status, NULL AS data_scope
  FROM effective e
 WHERE e.type = 'button'
UNION ALL
SELECT 'depts' AS kind, NULL AS id, NULL AS parent_id, NULL AS type,
       string_agg(CAST(s.id AS TEXT), ',') AS code, NULL AS name, NULL AS path, NULL AS component, NULL AS icon,
       NULL AS permission, 0 AS sort, NULL AS visible, NULL AS status, NULL AS data_scope
  FROM seen s
UNION ALL
SELECT 'version' AS kind, av.version AS id, NULL AS parent_id, NULL AS type, NULL AS code,
       NULL AS name, NULL AS path, NULL AS component, NULL AS icon, NULL AS permission, 0 AS sort,
       NULL AS visible, NULL AS status, NULL AS data_scope
  FROM access_version av
 WHERE av.id = 1`)

/** The access part of /me, as JSON, per user and access version (and department). */
type Snapshot = {
  version: number
  deptId: number | null
  superAdmin: boolean
  codes: Set<string>
  /** The data scope: every account, or those of these departments and/or its own. */
  scope: { all: boolean; self: boolean; deptIds: number[] }
  json: string
}
const snapshots = new Map<number, Snapshot>()
const bySortThenId = (a: Row, b: Row) => a.sort - b.sort || a.id - b.id

async function snapshotOf(userId: number, deptId: number | null, counter: Counter) {
  const dept = deptId ?? -1
  const rows = await sql(pool, counter, SNAPSHOT_SQL, [
    userId,
    'super_admin',
    userId,
    userId,
    dept,
    dept,
    userId,
  ])
  const roles: Row[] = []
  const menus: Row[] = []
  const codes = new Set<string>()
  const deptIds: number[] = []
  let version = 0
  for (const row of rows) {
    if (row.kind === 'version') version = Number(row.id)
    else if (row.kind === 'depts' && row.code) deptIds.push(...row.code.split(',').map(Number))
    else if (row.kind === 'role') {
      const { code, name, status } = row
      const scope = row.data_scope ?? 'self'
      roles.push({ id: Number(row.id), code, name, status, sort: Number(row.sort), scope })
    } else if (row.kind === 'menu') {
      if (row.permission) codes.add(row.permission)
      const { type, name, path, component, icon, permission } = row
      menus.push({
        id: Number(row.id),
        parentId: row.parent_id === null ? null : Number(row.parent_id),
        ...{ type, name, path, component, icon, permission },
        sort: Number(row.sort),
        visible: Boolean(row.visible),
      })
    } else if (row.kind === 'buttons' && row.code) {
      for (const button of row.code.split('\u001f')) {
        const code = button.slice(button.indexOf(':') + 1)
        if (code) codes.add(code)
      }
    }
  }
  menus.sort(bySortThenId)
  roles.sort(bySortThenId)
  const superAdmin = roles.some((r) => r.code === 'super_admin' && r.status === 'enabled')
  const nodes = new Map<number, Row>(menus.map((menu) => [menu.id, { ...menu, children: [] }]))
  const tree: Row[] = []
  for (const node of nodes.values()) {
    if (node.parentId === null) tree.push(node)
    else nodes.get(node.parentId)?.children.push(node)
  }
  const json = JSON.stringify({
    roles: roles.map(({ id, code, name, status }) => ({ id, code, name, status })),
    menus: tree,
    permissions: [...codes].sort(),
  }).slice(1, -1)
  const enabled = roles.filter((role) => role.status === 'enabled')
  const all = superAdmin || enabled.some((role) => role.scope === 'all')
  const self = enabled.some((role) => role.scope === 'self')
  return { version, deptId, superAdmin, codes, scope: { all, self, deptIds }, json }
}

/** The /me body per account, while every column of its row and its snapshot are unchanged. */
const bodies = new Map<
  number,
  { values: unknown[]; snapshot: Snapshot; pending: unknown; body: Buffer }
>()
const same = (a: unknown, b: unknown) =>
  a === b || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime())
const DAY_MS = 86_400_000
const TOUCH_SQL = statement(
  'update "admin_sessions" set "last_seen_at" = ? where "id" = ? and "last_seen_at" < ?',
  false
)
const UNAUTHORIZED = Buffer.from('{"errors":[{"code":"E_UNAUTHORIZED_ACCESS"}]}')

/**
 * The guard's work (the project's JwtGuard, its access snapshot and requirement gate): the
 * account's row, snapshot and pending requirement, or undefined once it has answered 401.
 */
async function authenticate(req: IncomingMessage, res: Res, counter: Counter) {
  const header = req.headers.authorization
  const match = header && header.length <= 2048 ? BEARER.exec(header) : null
  let claims = match ? verified.get(match[1]) : undefined
  if (match && !claims && (claims = verify(match[1]))) hold(verified, match[1], claims, 10_000)
  if (!claims || Date.now() > claims.until) return void send(res, 401, UNAUTHORIZED, {})
  const row = await guardReads.get(`${claims.userId} ${claims.sessionId}`, counter)
  const now = Date.now()
  if (
    !row ||
    row.status !== 'enabled' ||
    row.token_version !== claims.tokenVersion ||
    row.session_expires_at === null ||
    row.session_ended_at !== null ||
    Number(row.session_expires_at) <= now
  ) {
    return void send(res, 401, UNAUTHORIZED, {})
  }
  if (now - Number(row.session_last_seen_at) >= 60_000) {
    await sql(pool, counter, TOUCH_SQL, [now, claims.sessionId, now - 60_000])
  }
  const version = Number(row.access_version)
  let snapshot = snapshots.get(row.id)
  if (!snapshot || snapshot.version !== version || snapshot.deptId !== row.dept_id) {
    snapshot = await snapshotOf(row.id, row.dept_id, counter)
    hold(snapshots, row.id, snapshot, 10_000)
  }
  // The project's super admin holds every permission code its source lists: not known here.
  if (snapshot.superAdmin) return void notServed(res)
  const account = accountOf(row, now)
  const secondFactor = Boolean(row.two_factor_confirmed_at) || Number(row.passkey_count ?? 0) > 0
  const pending = account.passwordChangeRequired
    ? 'E_PASSWORD_CHANGE_REQUIRED'
    : !secondFactor && REQUIRE_2FA === 'all'
      ? 'E_2FA_SETUP_REQUIRED'
      : null
  return { row, snapshot, pending, account }
}

/** What the project shows of an account to itself and in lists (its currentUser shape). */
function accountOf(row: Row, now: number) {
  const since: Date | null = row.password_changed_at ?? row.created_at
  const expiresAt =
    MAX_AGE_DAYS > 0 && since ? new Date(since.getTime() + MAX_AGE_DAYS * DAY_MS) : null
  return {
    id: row.id as number,
    account: row.account,
    nickname: row.nickname,
    email: row.email,
    emailVerified: Boolean(row.email_verified_at && row.email),
    status: row.status,
    lastLoginAt: row.last_login_at && iso(row.last_login_at),
    twoFactorEnabled: Boolean(row.two_factor_confirmed_at),
    createdAt: iso(row.created_at),
    passwordChangeRequired:
      Boolean(row.password_change_required) || (expiresAt !== null && expiresAt.getTime() <= now),
    passwordExpiresAt: expiresAt && iso(expiresAt),
    avatarUrl: row.avatar_etag ? `/api/avatars/${row.id}?v=${row.avatar_etag}` : null,
  }
}

async function me(req: IncomingMessage, res: Res, counter: Counter) {
  const known = await authenticate(req, res, counter)
  if (!known) return
  const { row, snapshot, pending } = known
  const values = USER_COLUMNS.map((column) => row[column])
  let held = bodies.get(row.id)
  if (
    !held ||
    held.snapshot !== snapshot ||
    held.pending !== pending ||
    !values.every((value, i) => same(value, held!.values[i]))
  ) {
    const user = {
      ...known.account,
      lastSignIn: row.previous_login_at
        ? { at: iso(row.previous_login_at), ip: row.previous_login_ip }
        : null,
      failedSinceLastSignIn: Number(row.failed_before_login ?? 0) + Number(row.failed_logins ?? 0),
    }
    const json = `{"data":{"user":${JSON.stringify(user)},"pendingRequirement":${JSON.stringify(pending)},${snapshot.json}}}`
    held = { values, snapshot, pending, body: Buffer.from(json) }
    hold(bodies, row.id, held, 10_000)
  }
  send(res, 200, held.body, { 'cache-control': 'no-store' })
}

// ---------------------------------------------------------------- /api/admin/users
const USERS_VERSION = '(SELECT version FROM users_version WHERE id = 1)'
const ACCESS_VERSION = '(SELECT version FROM access_version WHERE id = 1)'
// The texts knex builds for the project's query (UserService.query, user_list.ts): a scoped
// viewer's, departments and optionally its own account.
const scopeWhere = (self: boolean) =>
  `where (1 = 0 or ("users"."dept_id" = ANY(?::int[]))${self ? ' or "users"."id" = ?' : ''})`
// By [own account in scope][past the first page] (knex leaves out an offset of 0).
const USERS_PAGE_SQL = [false, true].map((self) =>
  [false, true].map((offset) =>
    statement(
      `select "users".*, (SELECT string_agg(CAST(ur.role_id AS TEXT), ',')
     FROM user_roles ur WHERE ur.user_id = users.id) AS role_ids, ${USERS_VERSION} AS users_version, ${ACCESS_VERSION} AS access_version from "users" ${scopeWhere(self)} order by "users"."id" asc limit ?${offset ? ' offset ?' : ''}`,
      false
    )
  )
)
const USERS_COUNT_SQL = [false, true].map((self) =>
  statement(
    `select COUNT(*) AS total, ${USERS_VERSION} AS users_version from "users" ${scopeWhere(self)}`,
    false
  )
)
const SUMMARIES_SQL = statement(
  `select "id", "code", "name", "status", "sort", ${ACCESS_VERSION} AS access_version from "roles"`,
  false
)
/** The lock state's read: one text per number of keys (two per account). */
const lockSql = new Map<number, Statement>()
const lockStatement = (keys: number) => {
  let held = lockSql.get(keys)
  if (!held) {
    held = statement(`SELECT key, points, expire FROM rate_limits
        WHERE key IN (${Array.from({ length: keys }, () => '?').join(', ')}) AND expire > ?`)
    lockSql.set(keys, held)
  }
  return held
}
const FAILURES_PER_ACCOUNT = Number(env.LIMIT_LOGIN_FAILURES_PER_ACCOUNT ?? 5)
const ACCOUNT_CAP = Math.max(1, Math.min(100, Number(env.LOGIN_ACCOUNT_CAP ?? 100)))
let summaries: { version: number; byId: Map<number, Row> } | undefined
const totals = new Map<string, { version: number; total: number }>()
const FORBIDDEN = Buffer.from('{"errors":[{"code":"E_FORBIDDEN"}]}')

async function users(url: URL, req: IncomingMessage, res: Res, counter: Counter) {
  const known = await authenticate(req, res, counter)
  if (!known) return
  if (known.pending) return send(res, 403, FORBIDDEN, {})
  if (!known.snapshot.codes.has('system:user:list')) return send(res, 403, FORBIDDEN, {})
  const q = url.searchParams
  if ([...q.keys()].some((name) => name !== 'pageNum' && name !== 'pageSize')) {
    return notServed(res)
  }
  const { scope } = known.snapshot
  // Only what the project's texts above were taken from: a scoped viewer with departments.
  if (scope.all || !scope.deptIds.length) return notServed(res)
  const pageNum = positive(q.get('pageNum'), 1)
  const pageSize = positive(q.get('pageSize'), 10)
  if (!pageNum || pageNum > 100_000 || !pageSize || pageSize > 100) {
    return send(res, 422, Buffer.from('{"errors":[{"code":"E_VALIDATION_ERROR"}]}'), {})
  }
  const where = scope.self ? [`{${scope.deptIds}}`, known.row.id] : [`{${scope.deptIds}}`]
  const offset = (pageNum - 1) * pageSize
  const page = USERS_PAGE_SQL[Number(scope.self)][Number(offset > 0)]
  const raws = await sql(pool, counter, page, [...where, pageSize, ...(offset ? [offset] : [])])
  let byId = new Map<number, Row>()
  if (raws.length) {
    const version = Number(raws[0].access_version)
    if (summaries?.version === version) byId = summaries.byId
    else {
      const rows = await sql(pool, counter, SUMMARIES_SQL, [])
      byId = new Map(rows.map((row) => [row.id, row]))
      if (rows.length) summaries = { version: Number(rows[0].access_version), byId }
    }
  }
  let total = offset + raws.length
  if (!(raws.length < pageSize && (raws.length > 0 || offset === 0))) {
    const key = `${scope.deptIds} ${scope.self && known.row.id}`
    const version = raws.length ? Number(raws[0].users_version) : null
    const held = totals.get(key)
    if (held && held.version === version) total = held.total
    else {
      const [row] = await sql(pool, counter, USERS_COUNT_SQL[Number(scope.self)], where)
      total = Number(row.total)
      hold(totals, key, { version: Number(row.users_version), total }, 1000)
    }
  }
  const now = Date.now()
  const keys = raws.flatMap((raw) => {
    const account = raw.account.toLowerCase()
    return [`rlflx:login_account_${account}`, `rlflx:login_ceiling_${account}`]
  })
  const locks = raws.length
    ? await sql(pool, counter, lockStatement(keys.length), [...keys, now])
    : []
  const blocked = new Map<string, number>()
  for (const lock of locks) {
    const limit = lock.key.startsWith('rlflx:login_ceiling_') ? ACCOUNT_CAP : FAILURES_PER_ACCOUNT
    if (Number(lock.points) >= limit) blocked.set(lock.key, Number(lock.expire))
  }
  const data = raws.map((raw, i) => {
    const roles = (raw.role_ids ? String(raw.role_ids).split(',').map(Number) : [])
      .map((id) => byId.get(id))
      .filter((role) => role !== undefined)
      .sort(bySortThenId)
      .map(({ id, code, name, status }) => ({ id, code, name, status }))
    const until = Math.max(0, blocked.get(keys[2 * i]) ?? 0, blocked.get(keys[2 * i + 1]) ?? 0)
    return {
      ...accountOf(raw, now),
      updatedAt: iso(raw.updated_at),
      deptId: raw.dept_id,
      lockedUntil: until > now ? new Date(until).toISOString() : null,
      roleIds: roles.map((role) => role.id),
      roles,
    }
  })
  const lastPage = Math.max(1, Math.ceil(total / pageSize))
  const json = JSON.stringify({ data, meta: { total, pageNum, pageSize, lastPage } })
  send(res, 200, Buffer.from(json), {})
}

// ---------------------------------------------------------------- server
const positive = (text: string | null, fallback: number) =>
  text === null || text === '' ? fallback : /^\d+$/.test(text) ? Number(text) : 0
const NOT_SERVED = Buffer.from('{"errors":[{"code":"E_NOT_SERVED_BY_THE_REFERENCE"}]}')
const notServed = (res: Res) => send(res, 501, NOT_SERVED, {})
const JSON_TYPE = 'application/json; charset=utf-8'

function send(res: Res, status: number, body: Buffer | undefined, headers: Row) {
  // The project's on every answer: its security headers and a request id.
  headers['x-content-type-options'] = 'nosniff'
  headers['referrer-policy'] = 'no-referrer'
  headers['content-security-policy'] = "frame-ancestors 'none'"
  headers['x-request-id'] = randomUUID()
  // As the project's exception handler: no error answer is kept by a cache.
  if (status >= 400) headers['cache-control'] = 'no-store'
  if (body) {
    headers['content-type'] = JSON_TYPE
    headers['content-length'] = body.length
  }
  if (res.counter && COUNT) headers['x-db-queries'] = res.counter.queries
  res.writeHead(status, headers)
  res.end(body)
}

async function route(req: IncomingMessage, res: Res) {
  const counter = { queries: 0 }
  res.counter = counter
  const url = new URL(req.url ?? '/', 'http://reference')
  const path = url.pathname
  if (req.method !== 'GET') return notServed(res)
  if (path === '/api/health') return health(res, counter)
  if (path === '/api/articles') return list(url, req, res, counter)
  if (path.startsWith('/api/articles/') && path.indexOf('/', 14) < 0) {
    let slug: string
    try {
      slug = decodeURIComponent(path.slice(14))
    } catch {
      return send(res, 404, NOT_FOUND, {})
    }
    return detail(slug, req, res, counter)
  }
  if (path === '/api/auth/me') return me(req, res, counter)
  if (path === '/api/admin/users') return users(url, req, res, counter)
  notServed(res)
}

const server = createServer((req, res) =>
  route(req, res).catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`)
    if (!res.headersSent) send(res, 500, Buffer.from('{"errors":[{"code":"E_INTERNAL"}]}'), {})
  })
)
server.listen(Number(env.PORT ?? 3333), env.HOST ?? '127.0.0.1')
process.once('SIGTERM', () => {
  server.close()
  server.closeIdleConnections()
  void Promise.all([pool.end(), publicPool.end()]).then(() => process.exit(0))
})
