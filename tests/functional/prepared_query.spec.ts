import { test } from '@japa/runner'
import { Agent, type Server, createServer, get } from 'node:http'
import type { AddressInfo } from 'node:net'
import v8 from 'node:v8'
import vm from 'node:vm'
import db from '@adonisjs/lucid/services/db'
import { preparedQuery } from '#core/prepared_query'

/*
| preparedQuery (app/core/prepared_query.ts) under the load it meets in production: requests on
| keep-alive connections, each awaiting its statement. Its PostgreSQL path (the suites under
| DB_CONNECTION=pg); on SQLite it is knex's (3.4 MB here, the server's database is PostgreSQL).
*/
test.group('preparedQuery under concurrent requests', () => {
  test('leaves no garbage in the old generation', async ({ assert }) => {
    // With pg's promise API every query's objects, and the request awaiting them, were promoted
    // to the old generation, which only a full collection frees: 6 MB here, what filled the
    // server's old space on /me (docs/performance.md, "What fills the old space under load").
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc') as () => void
    let statement = true
    const server: Server = createServer(async (_request, response) => {
      // A request's own objects, alive until its statement is back.
      const held = Array.from({ length: 300 }, (_, index) => ({ index }))
      if (!statement) {
        await new Promise((next) => setImmediate(next))
        return response.end(String(held.length))
      }
      const [row] = await preparedQuery<{ n: number }>('SELECT ? + 0 AS n', [held.length])
      response.end(String(row.n))
    })
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
    const answers = new Set<string>()
    const tenClients = (each: number) =>
      Promise.all(
        Array.from({ length: 10 }, async () => {
          for (let i = 0; i < each; i++) answers.add(await request())
        })
      )
    const oldSpaceUsed = () =>
      v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size
    try {
      const oldSpaceGrowth = async () => {
        await tenClients(100)
        gc()
        const before = oldSpaceUsed()
        await tenClients(500)
        return oldSpaceUsed() - before
      }
      // What the same requests leave there when they wait on no statement (a turn of the event
      // loop instead): this process's young generation is smaller than `npm start`'s.
      statement = false
      const withoutStatement = await oldSpaceGrowth()
      statement = true
      const withStatement = await oldSpaceGrowth()
      assert.isBelow(withStatement - withoutStatement, 1024 * 1024)
      assert.deepEqual([...answers], ['300'])
    } finally {
      agent.destroy()
      await new Promise((closed) => server.close(closed))
    }
  }).skip(db.connection().dialect.name !== 'postgres', 'PostgreSQL only')
})
