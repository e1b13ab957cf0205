import { test } from '@japa/runner'
import { PriorityGate } from '#core/cpu_gates'

/** A job that runs until released, recording its start. */
function job(log: string[], name: string) {
  let release!: () => void
  const done = new Promise<void>((resolve) => (release = resolve))
  return {
    release: () => release(),
    work: async () => {
      log.push(name)
      await done
      return name
    },
  }
}
const tick = () => new Promise((resolve) => setImmediate(resolve))

test.group('PriorityGate', () => {
  test('runs at most `concurrency` at once; trusted waiters go before anonymous ones', async ({
    assert,
  }) => {
    const gate = new PriorityGate(1, 10)
    const log: string[] = []
    const first = job(log, 'anon-1')
    const second = job(log, 'anon-2')
    const owner = job(log, 'owner')
    const runs = [
      gate.run('anonymous', first.work),
      gate.run('anonymous', second.work),
      gate.run('trusted', owner.work),
    ]
    await tick()
    assert.deepEqual(log, ['anon-1'])
    assert.deepEqual(gate.load, { running: 1, trusted: 1, anonymous: 1 })
    first.release()
    await tick()
    assert.deepEqual(log, ['anon-1', 'owner'], 'the trusted waiter jumped the queue')
    owner.release()
    await tick()
    second.release()
    assert.deepEqual(await Promise.all(runs), ['anon-1', 'anon-2', 'owner'])
    assert.deepEqual(gate.load, { running: 0, trusted: 0, anonymous: 0 })
  })

  test('a full anonymous queue answers 503 at once; the trusted queue still takes the owner', async ({
    assert,
  }) => {
    const gate = new PriorityGate(1, 2)
    const log: string[] = []
    const jobs = Array.from({ length: 3 }, (_, i) => job(log, `anon-${i}`))
    const runs = jobs.map((item) => gate.run('anonymous', item.work))
    await tick()
    try {
      await gate.run('anonymous', async () => 'never')
      assert.fail('expected a 503')
    } catch (error) {
      assert.equal((error as any).status, 503)
      assert.equal((error as any).headers['Retry-After'], '1')
    }
    const owner = job(log, 'owner')
    const ownerRun = gate.run('trusted', owner.work)
    jobs[0].release()
    await tick()
    assert.deepEqual(log, ['anon-0', 'owner'])
    owner.release()
    jobs.slice(1).forEach((item) => item.release())
    await Promise.all([...runs, ownerRun])
  })

  test('a failing job frees its slot', async ({ assert }) => {
    const gate = new PriorityGate(1, 1)
    await assert.rejects(() =>
      gate.run('anonymous', async () => {
        throw new Error('boom')
      })
    )
    assert.equal(await gate.run('anonymous', async () => 'ok'), 'ok')
    assert.equal(gate.load.running, 0)
  })
})
