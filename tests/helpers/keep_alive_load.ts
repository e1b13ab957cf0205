import { Agent, type Server, get } from 'node:http'
import type { AddressInfo } from 'node:net'
import v8 from 'node:v8'
import vm from 'node:vm'

/**
 * Production's traffic shape for the memory tests: `server` listening on loopback, 10 clients on
 * keep-alive connections, each sending its next request when the last is answered. `load(each)`
 * resolves with every body once each client has sent `each` requests; `close()` ends both sides.
 */
export async function keepAliveClients(server: Server) {
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  const agent = new Agent({ keepAlive: true, maxSockets: 10 })
  const request = () =>
    new Promise<string>((answered, failed) =>
      get({ host: '127.0.0.1', port, path: '/', agent }, (response) => {
        let body = ''
        response.on('data', (chunk) => (body += chunk))
        response.on('end', () => answered(body))
      }).on('error', failed)
    )
  const load = async (each: number) => {
    const bodies: string[] = []
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let i = 0; i < each; i++) bodies.push(await request())
      })
    )
    return bodies
  }
  const close = async () => {
    agent.destroy()
    await new Promise((closed) => server.close(closed))
  }
  return { load, close }
}

/** V8's collector, callable from a test: a full collection, or a scavenge with `minor`. */
export function exposedGc() {
  v8.setFlagsFromString('--expose-gc')
  return vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void
}
