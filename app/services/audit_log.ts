import { DateTime } from 'luxon'
import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { addressKey } from '#core/address_key'
import type { Client } from '#core/client'
import { RefusalRows } from '#core/refusal_rows'
import { rowsChanged } from '#core/secrets'
import { permissionOf } from '#middleware/permission_middleware'

/**
 * The audit log (table audit_logs, docs/architecture.md, "Accountability"): one row per successful admin write,
 * written by the service IN the write's transaction (a rolled-back change leaves no row, a
 * committed one always has one), one row per `node ace` command that changes an account, and for
 * refused (403) admin writes one row per key per minute whose `count` says how many it stands for
 * (recordRefusal below). Changed fields are stored as { field: [before, after] };
 * secrets (passwords, digests, tokens) are never stored, not even hashed: only that they changed.
 */

/** Who acts, and under which declared permission: from the request, or a command's name. */
export type AuditSource = {
  actorId: number | null
  actor: string
  permission: string
  requestId: string | null
  ip: string | null
  /** The API token the actor used (app/auth/api_tokens.ts), when not a signed-in session. */
  tokenId?: number | null
}

/** What the audit rows of the own-profile writes name: the account itself, no permission code. */
export const OWN_PROFILE = 'own:profile'

export type AuditEntry = {
  targetType: string
  targetId?: string | number | null
  changes?: Record<string, [unknown, unknown]> | null
}

const SECRET = /password|digest|token|secret|hash|credential/i
/** Bookkeeping: noise in a diff (a password reset or a disable is recorded as such). */
const IGNORED = new Set(['updatedAt', 'updated_at', 'tokenVersion'])
/** What a secret's change is stored as. */
export const MASKED = '[changed]'

/** Fields whose value differs between `before` and `after`, secrets masked. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>
): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {}
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = normalise(before[key])
    const to = normalise(after[key])
    if (IGNORED.has(key) || JSON.stringify(from) === JSON.stringify(to)) continue
    changes[key] = SECRET.test(key) ? [MASKED, MASKED] : [from, to]
  }
  return changes
}

/** Dates and luxon DateTimes as ISO strings; undefined as null. */
function normalise(value: unknown): unknown {
  if (value === undefined) return null
  if (value instanceof Date) return value.toISOString()
  if (value && typeof (value as { toISO?: unknown }).toISO === 'function') {
    return (value as { toISO: () => string }).toISO()
  }
  return value
}

export async function recordAudit(
  client: QueryClientContract,
  source: AuditSource,
  entry: AuditEntry,
  outcome: 'succeeded' | 'refused' = 'succeeded',
  reason: string | null = null
) {
  const changes = entry.changes && Object.keys(entry.changes).length ? entry.changes : null
  const [inserted] = await client
    .table('audit_logs')
    .returning('id')
    .insert({
      // The connection's own format: SQLite compares stored dates as text.
      created_at: DateTime.utc().toFormat(client.dialect.dateTimeFormat),
      actor_id: source.actorId,
      actor: source.actor.slice(0, 80),
      token_id: source.tokenId ?? null,
      permission: source.permission.slice(0, 100),
      target_type: entry.targetType,
      target_id:
        entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
      outcome,
      reason: reason?.slice(0, 255) ?? null,
      request_id: source.requestId?.slice(0, 64) ?? null,
      ip: source.ip?.slice(0, 64) ?? null,
      changes: changes ? JSON.stringify(changes) : null,
    })
  // bigint: node-postgres returns it as a string.
  return Number(typeof inserted === 'object' ? inserted.id : inserted)
}

/** The permission code a route declares with the `can` middleware (start/routes/admin.ts). */
export function declaredPermission(ctx: HttpContext): string | null {
  return permissionOf(ctx.route)
}

/** What an admin route's first path segment names: `/api/admin/users/:id/roles` -> `user`. */
export function targetTypeOf(ctx: HttpContext): string {
  const segment = (ctx.route?.pattern ?? '').split('/')[3] ?? 'unknown'
  // `access` stays itself: only a plural's one trailing s goes.
  return segment.replace(/-/g, '_').replace(/([^s])s$/, '$1')
}

/**
 * Refused writes, aggregated (app/core/refusal_rows.ts): the key is (user, method and route,
 * address key), so a burst of refusals from one account is one row per minute with its `count`.
 * The row keeps the first refusal's target, reason and request id.
 */
type RefusalRow = { id: number; actorId: number | null; permission: string }
const refusals = new RefusalRows<RefusalRow>('audit-refusal-rows')

/**
 * A refused admin write (403), recorded outside any transaction (the refused one rolled back).
 * Reads are not recorded: they change nothing.
 */
export async function recordRefusal(ctx: HttpContext, reason: string) {
  const permission = declaredPermission(ctx)
  if (!permission || ctx.request.method() === 'GET' || ctx.request.method() === 'HEAD') return
  const guard = ctx.auth?.use('jwt')
  const tokenId = guard?.apiTokenId ?? null
  const ip = ctx.request.ip()
  const actorId = guard?.userId ?? null
  const key = [
    actorId ?? '-',
    tokenId ?? '-',
    ctx.request.method(),
    ctx.route?.pattern ?? ctx.request.url(),
    addressKey(ip),
  ].join('\n')
  const client = db.connection()
  await refusals.record(
    key,
    async () => {
      const id = await recordAudit(
        client,
        {
          actorId,
          actor: guard?.account?.account ?? 'unknown',
          permission,
          requestId: ctx.request.id() ?? null,
          ip,
          tokenId,
        },
        { targetType: targetTypeOf(ctx), targetId: ctx.params?.id ?? null },
        'refused',
        reason
      )
      return { id, actorId, permission: permission.slice(0, 100) }
    },
    // The row's own actor and permission too: an id alone could name another row after a rollback.
    async (row) => {
      const query = client
        .from('audit_logs')
        .where('id', row.id)
        .where('outcome', 'refused')
        .where('permission', row.permission)
      if (row.actorId === null) query.whereNull('actor_id')
      else query.where('actor_id', row.actorId)
      return rowsChanged(await query.update({ count: db.raw('count + 1') })) > 0
    }
  )
}

/**
 * A signed-in person's act on their own account: actor = target, and a pseudo-code naming the act
 * (`own:profile`, `auth:2fa:setup`...) where an admin write names its permission.
 */
export function ownSource(
  user: { id: number; account: string },
  client: Client,
  permission: string
): AuditSource {
  return {
    actorId: user.id,
    actor: user.account,
    permission,
    requestId: client.requestId ?? null,
    ip: client.ip,
  }
}

/** An ace command acting on accounts: no request, the operator named as the command. */
export function commandSource(commandName: string, permission: string): AuditSource {
  return {
    actorId: null,
    actor: `command:${commandName}`,
    permission,
    requestId: null,
    ip: null,
  }
}
