import { test } from '@japa/runner'
import { SearchGate } from '#services/public/search_gate'

const tick = () => new Promise((resolve) => setImmediate(resolve))

/** A search that runs until released, recording its start. */
function searches(log: string[]) {
  const releases: (() => void)[] = []
  return {
    search: (name: string) => () =>
      new Promise<string>((resolve) => {
        log.push(name)
        releases.push(() => resolve(name))
      }),
    /** Ends the running searches one by one, until none is left. */
    async drain() {
      while (releases.length > 0) {
        releases.shift()!()
        await tick()
      }
    },
  }
}

/** Runs at once; settles as 'refused' (a 503, thrown or rejected) or the search's name. */
function outcome(run: () => Promise<string>): Promise<string> {
  const refused = (error: any) => (error?.status === 503 ? 'refused' : Promise.reject(error))
  try {
    return run().catch(refused)
  } catch (error) {
    return Promise.resolve(refused(error))
  }
}

test.group('SearchGate: capacity shared per address', () => {
  test('a full queue gives the heaviest address up for a lighter one; equals are refused; round robin', async ({
    assert,
  }) => {
    const gate = new SearchGate(1, 3, 3)
    const log: string[] = []
    const { search, drain } = searches(log)
    const running = outcome(() => gate.run(search('internal')))
    await tick()
    const a = [1, 2, 3].map((n) => outcome(() => gate.run(search(`a${n}`), '192.0.2.1')))
    assert.deepEqual(gate.load, { active: 1, waiting: 3 })
    // b, c and d each take the place of the heaviest address's oldest waiter (a1, a2, then a3:
    // a holds as many as they do after they join, with more demand).
    const b = outcome(() => gate.run(search('b'), '192.0.2.2'))
    const c = outcome(() => gate.run(search('c'), '192.0.2.3'))
    const d = outcome(() => gate.run(search('d'), '192.0.2.4'))
    assert.deepEqual(gate.stats, { admitted: 7, refused: 0, evicted: 3 })
    assert.equal(gate.heldBy('192.0.2.1'), 0)
    // Three addresses of one waiter and one search each: a fourth like them is refused.
    const e = outcome(() => gate.run(search('e'), '192.0.2.5'))
    assert.deepEqual(gate.load, { active: 1, waiting: 3 })

    await drain()
    assert.deepEqual(await Promise.all([running, ...a, b, c, d, e]), [
      'internal',
      'refused',
      'refused',
      'refused',
      'b',
      'c',
      'd',
      'refused',
    ])
    assert.deepEqual(log, ['internal', 'b', 'c', 'd'])
    assert.deepEqual(gate.load, { active: 0, waiting: 0 })
  })

  test('waiters are served one per address in turn, not in arrival order', async ({ assert }) => {
    const gate = new SearchGate(1, 10, 4)
    const log: string[] = []
    const { search, drain } = searches(log)
    const runs = [outcome(() => gate.run(search('internal')))]
    for (const name of ['a1', 'a2', 'a3', 'b1', 'b2', 'c1']) {
      const address = `192.0.2.${name.charCodeAt(0)}`
      runs.push(outcome(() => gate.run(search(name), address)))
    }
    await drain()
    await Promise.all(runs)
    assert.deepEqual(log, ['internal', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3'])
  })

  test('one address past its share is refused while the queue has room', async ({ assert }) => {
    const gate = new SearchGate(1, 10, 2)
    const { search, drain } = searches([])
    const runs = [outcome(() => gate.run(search('internal')))]
    runs.push(outcome(() => gate.run(search('a1'), '2001:db8::1')))
    runs.push(outcome(() => gate.run(search('a2'), '2001:db8::2')))
    runs.push(outcome(() => gate.run(search('a3'), '2001:db8::3')))
    await drain()
    assert.deepEqual(await Promise.all(runs), ['internal', 'a1', 'a2', 'refused'])
  })
})
