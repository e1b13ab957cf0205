import { createServer, connect, type Socket } from 'node:net'

/**
 * A loopback TCP proxy the tests put between the app and PostgreSQL, to cut the database away
 * for real (every open connection reset, new ones refused) and to restore it.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>()
  let open = true
  const server = createServer((client) => {
    if (!open) return client.destroy()
    const upstream = connect(target.port, target.host)
    sockets.add(client)
    sockets.add(upstream)
    const drop = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on('error', drop).on('close', drop)
    upstream.on('error', drop).on('close', drop)
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    port,
    /** Resets every open connection and refuses new ones. */
    cut() {
      open = false
      for (const socket of sockets) socket.destroy()
      sockets.clear()
    },
    restore() {
      open = true
    },
    async close() {
      this.cut()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
