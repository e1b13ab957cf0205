import { timingSafeEqual } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'

/**
 * Whether the caller presents `secret` in the x-monitoring-secret header, compared in constant
 * time. False when the secret is not configured. The one comparison of monitoring secrets:
 * HEALTH_SECRET (the readiness report) and METRICS_SECRET (GET /api/metrics).
 */
export function presentsSecret(request: HttpContext['request'], secret: string | undefined) {
  const given = request.header('x-monitoring-secret')
  if (!secret || !given) return false
  const [a, b] = [Buffer.from(secret), Buffer.from(given)]
  return a.length === b.length && timingSafeEqual(a, b)
}
