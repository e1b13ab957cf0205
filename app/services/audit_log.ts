import { DateTime } from 'luxon'
import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/**
 * The audit log (table audit_logs, README "Accountability"): one row per successful admin write,
 * written by the service IN the write's transaction (a rolled-back change leaves no row, a
 * committed one always has one), one row per refused (403) admin write, and one per `node ace`
 * command that changes an account. Changed fields are stored as { field: [before, after] };
 * secrets (passwords, digests, tokens) are never stored, not even hashed: only that they changed.
 */

/** Who acts, and under which declared permission: from the request, or a command's name. */
export type AuditSource = {
  actorId: number | null
  actor: string
  permission: string
  requestId: string | null
  ip: string | null
}

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
  await client.table('audit_logs').insert({
    // The connection's own format: SQLite compares stored dates as text.
    created_at: DateTime.utc().toFormat(client.dialect.dateTimeFormat),
    actor_id: source.actorId,
    actor: source.actor.slice(0, 80),
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
}

/** The permission code a route declares with the `can` middleware (start/routes/admin.ts). */
export function declaredPermission(ctx: HttpContext): string | null {
  const declaration = [...(ctx.route?.middleware.all() ?? [])].find(
    (entry: any) => entry?.name === 'can'
  ) as { args?: unknown } | undefined
  return typeof declaration?.args === 'string' ? declaration.args : null
}

/** What an admin route's first path segment names: `/api/admin/users/:id/roles` -> `user`. */
export function targetTypeOf(ctx: HttpContext): string {
  const segment = (ctx.route?.pattern ?? '').split('/')[3] ?? 'unknown'
  return segment.replace(/-/g, '_').replace(/s$/, '')
}

/**
 * A refused admin write (403), recorded outside any transaction (the refused one rolled back).
 * Reads are not recorded: they change nothing.
 */
export async function recordRefusal(ctx: HttpContext, reason: string) {
  const permission = declaredPermission(ctx)
  if (!permission || ctx.request.method() === 'GET' || ctx.request.method() === 'HEAD') return
  const user = ctx.auth?.use('jwt').user
  await recordAudit(
    db.connection(),
    {
      actorId: user?.id ?? null,
      actor: user?.account ?? 'unknown',
      permission,
      requestId: ctx.request.id() ?? null,
      ip: ctx.request.ip(),
    },
    { targetType: targetTypeOf(ctx), targetId: ctx.params?.id ?? null },
    'refused',
    reason
  )
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
