import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/** Rows per DELETE: short statements, so a large prune never holds long locks. */
const BATCH = 5000

/**
 * node ace logs:prune [--days=180]
 *
 * Deletes login-log and audit-log rows older than N days, sessions that ended or expired more
 * than N days ago, and dead API tokens (expired more than N days ago, or revoked by the owner's
 * tokenVersion and created more than N days ago), in batches of 5,000 rows. Run it from cron (docs/operations.md, "Retention").
 */
export default class LogsPrune extends BaseCommand {
  static commandName = 'logs:prune'
  static description =
    'Delete login log, audit log, ended sessions and dead API tokens older than --days'
  static options: CommandOptions = { startApp: true }

  @flags.number({ description: 'Keep this many days (default 180)' })
  declare days?: number

  async run() {
    const days = this.days ?? 180
    if (!Number.isInteger(days) || days < 1) {
      this.logger.error('--days must be a whole number of days, at least 1')
      this.exitCode = 1
      return
    }
    const { DateTime } = await import('luxon')
    const { default: db } = await import('@adonisjs/lucid/services/db')
    const cutoff = DateTime.utc().minus({ days })
    const stamp = cutoff.toFormat(db.connection().dialect.dateTimeFormat)
    const ms = cutoff.toMillis()

    const prune = async (table: string, where: (query: any) => any) => {
      let total = 0
      for (;;) {
        const ids = db.from(table).select('id').limit(BATCH)
        where(ids)
        const deleted = await db.from(table).whereIn('id', ids).delete()
        const count = Number(Array.isArray(deleted) ? deleted[0] : deleted)
        total += count
        if (count < BATCH) return total
      }
    }
    const logins = await prune('login_logs', (query) => query.where('created_at', '<', stamp))
    const audits = await prune('audit_logs', (query) => query.where('created_at', '<', stamp))
    const sessions = await prune('admin_sessions', (query) =>
      query.where((ended: any) => ended.where('ended_at', '<', ms).orWhere('expires_at', '<', ms))
    )
    const tokens = await prune('api_tokens', (query) =>
      query.where((dead: any) =>
        dead
          .where('expires_at', '<', ms)
          .orWhereExists(
            db
              .from('users')
              .whereColumn('users.id', 'api_tokens.user_id')
              .whereColumn('users.token_version', '<>', 'api_tokens.token_version')
              .where('api_tokens.created_at', '<', ms)
          )
      )
    )
    this.logger.success(
      `Pruned rows older than ${days} days: ${logins} login log, ${audits} audit log, ${sessions} sessions, ${tokens} API tokens`
    )
  }
}
