import type { Server } from 'node:http'
import type { ApplicationService } from '@adonisjs/core/types'

/**
 * Graceful shutdown (docs/operations.md, "Running several instances"). On SIGTERM:
 *   1. readiness answers 503 at once (GET /api/health/ready), while the instance keeps serving for
 *      SHUTDOWN_DELAY_MS so that the load balancer sees it and stops sending new requests;
 *   2. the listener closes (no new connections) and idle keep-alive connections are closed as they
 *      become idle, while in-flight requests finish;
 *   3. after SHUTDOWN_TIMEOUT_MS the connections still open are cut (a request that hangs must not
 *      block a deploy forever);
 *   4. the providers shut down (database pools, Redis) and the process exits 0.
 */
let draining = false
let nodeServer: Server | undefined

export const isDraining = () => draining

/** bin/server.ts hands over the Node server it created. */
export function trackServer(server: Server) {
  nodeServer = server
  return server
}

export async function gracefulShutdown(app: ApplicationService) {
  if (draining) return
  draining = true
  const logger = await app.container.make('logger')
  // Imported here: bin/server.ts loads this module before the app (and its env) boots.
  const { default: env } = await import('#start/env')
  const delay = env.get('SHUTDOWN_DELAY_MS', 0)
  const timeout = env.get('SHUTDOWN_TIMEOUT_MS', 10_000)
  logger.info({ delayMs: delay, timeoutMs: timeout }, 'SIGTERM: draining')
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))

  // A connection that finishes its response and goes idle is closed instead of kept alive.
  const idleSweep = setInterval(() => nodeServer?.closeIdleConnections(), 50)
  const deadline = setTimeout(() => {
    logger.warn('shutdown timeout: closing the connections still open')
    nodeServer?.closeAllConnections()
  }, timeout)
  try {
    // Closes the HTTP server (waits for in-flight requests), then the providers (pools, Redis).
    await app.terminate()
  } finally {
    clearInterval(idleSweep)
    clearTimeout(deadline)
  }
  logger.info('shutdown complete')
  process.exit(process.exitCode ?? 0)
}
