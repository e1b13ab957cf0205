import { test } from '@japa/runner'
import { createServer } from 'node:http'
import v8 from 'node:v8'
import db from '@adonisjs/lucid/services/db'
import { preparedQuery } from '#core/prepared_query'
import { exposedGc, keepAliveClients } from '#tests/helpers/keep_alive_load'

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
    const gc = exposedGc()
    let statement = true
    const server = createServer(async (_request, response) => {
      // A request's own objects, alive until its statement is back.
      const held = Array.from({ length: 300 }, (_, index) => ({ index }))
      if (!statement) {
        await new Promise((next) => setImmediate(next))
        return response.end(String(held.length))
      }
      const [row] = await preparedQuery<{ n: number }>('SELECT ? + 0 AS n', [held.length])
      response.end(String(row.n))
    })
    const { load, close } = await keepAliveClients(server)
    const answers = new Set<string>()
    const tenClients = async (each: number) => (await load(each)).forEach((a) => answers.add(a))
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
      await close()
    }
  }).skip(db.connection().dialect.name !== 'postgres', 'PostgreSQL only')
})
