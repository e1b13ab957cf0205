import db from '@adonisjs/lucid/services/db'
import type { HttpContext } from '@adonisjs/core/http'

export default class HealthController {
  /**
   * Liveness plus readiness: answers 200 only when a real query reaches the database. A database
   * failure propagates to the error handler (503/500 in the error contract), never a 200.
   */
  async show({ serialize }: HttpContext) {
    const started = performance.now()
    await db.rawQuery('SELECT 1')
    return serialize({
      status: 'ok',
      database: { status: 'up', latencyMs: Math.round((performance.now() - started) * 100) / 100 },
    })
  }
}
