import { test } from '@japa/runner'
import { createApiServer } from '#start/http_server'
import { exposedGc, keepAliveClients } from '#tests/helpers/keep_alive_load'

/*
| The process's buffer pool (set in start/http_server.ts) under keep-alive load: small buffers are
| slices of one shared slab, and a slab that outlives two scavenges waits dead in the old generation
| for a full collection (docs/performance.md, "What fills the old space under load").
*/
test.group('Buffer pool under load', () => {
  test('leaves no dead slabs behind requests that take a small buffer each', async ({ assert }) => {
    const gc = exposedGc()
    let served = 0
    const server = createApiServer((_request, response) => {
      // The 256 bytes pg-protocol's writer takes from the pool after each message it writes (a
      // statement per request), and a scavenge every 100 requests: `npm start`'s on /me is every
      // ~130 statements (16 MB of young generation; this process's is larger).
      const message = Buffer.allocUnsafe(256)
      message[0] = 1
      if (++served % 100 === 0) gc({ type: 'minor' })
      response.end(String(message.length))
    })
    const { load, close } = await keepAliveClients(server)
    const tenClients = async (each: number) => {
      for (const body of await load(each)) assert.equal(body, '256')
    }
    try {
      await tenClients(100)
      gc()
      const before = process.memoryUsage().arrayBuffers
      await tenClients(500)
      gc({ type: 'minor' })
      gc({ type: 'minor' })
      // Node 24.22's 64 KiB slabs: every one promoted, 1.2 MB here; 8 KiB ones die young.
      assert.isBelow(process.memoryUsage().arrayBuffers - before, 256 * 1024)
    } finally {
      await close()
    }
  })
})
