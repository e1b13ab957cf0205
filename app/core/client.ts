import type { HttpContext } from '@adonisjs/core/http'

/**
 * Who a request comes from, as sessions, devices, the login log, mails and audit rows record it
 * (each store bounds the lengths as its columns are). `requestId` ties an audit row to its log line.
 */
export type Client = { ip: string; userAgent?: string; requestId?: string | null }

export const clientOf = ({ request }: HttpContext): Client => ({
  ip: request.ip(),
  userAgent: request.header('user-agent'),
  requestId: request.id() ?? null,
})
