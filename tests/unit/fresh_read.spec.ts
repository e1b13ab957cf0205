import { test } from '@japa/runner'
import { FreshRead, FreshReads } from '#core/fresh_read'

/** A read that answers when told to, recording the keys of each batch it was sent. */
function controlledReads() {
  const batches: { keys: string[]; answer: (values?: Record<string, number>) => void }[] = []
  let fail: Error | undefined
  const reads = new FreshReads<number>(
    (keys) =>
      new Promise((resolve, reject) => {
        batches.push({
          keys,
          answer: (values = {}) => (fail ? reject(fail) : resolve(new Map(Object.entries(values)))),
        })
      })
  )
  return { reads, batches, failWith: (error: Error) => (fail = error) }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

test.group('FreshReads: one statement for concurrent callers, never one sent before them', () => {
  test('a caller arriving while a batch is in flight is answered by the next one', async ({
    assert,
  }) => {
    const { reads, batches } = controlledReads()
    const first = reads.get('a')
    assert.deepEqual(
      batches.map((batch) => batch.keys),
      [['a']]
    )
    // Sent before these callers arrived: they wait for the next batch, which they all share.
    const second = reads.get('a')
    const third = reads.get('b')
    const fourth = reads.get('c')
    assert.lengthOf(batches, 1)
    batches[0].answer({ a: 1 })
    assert.equal(await first, 1)
    await tick()
    assert.deepEqual(
      batches.map((batch) => batch.keys),
      [['a'], ['a', 'b', 'c']]
    )
    // The write the first batch could not see is in the second one's answer.
    batches[1].answer({ a: 2, b: 3 })
    assert.deepEqual(await Promise.all([second, third, fourth]), [2, 3, undefined])
    // Nothing in flight: the next caller sends at once.
    const fifth = reads.get('a')
    assert.lengthOf(batches, 3)
    batches[2].answer({ a: 4 })
    assert.equal(await fifth, 4)
  })

  test('an error reaches every caller of its batch, and the next batch is still sent', async ({
    assert,
  }) => {
    const { reads, batches, failWith } = controlledReads()
    const first = reads.get('a')
    const waiting = [reads.get('a'), reads.get('b')]
    failWith(new Error('connection lost'))
    batches[0].answer()
    await assert.rejects(() => first, 'connection lost')
    await tick()
    assert.lengthOf(batches, 2)
    batches[1].answer()
    for (const caller of waiting) await assert.rejects(() => caller, 'connection lost')
    // A later caller is not stuck behind the failed batches.
    const later = controlledReads()
    const value = later.reads.get('x')
    later.batches[0].answer({ x: 7 })
    assert.equal(await value, 7)
  })

  test('FreshRead: one value, shared the same way', async ({ assert }) => {
    let reads = 0
    let version = 10
    const read = new FreshRead(async () => {
      reads++
      // What the database holds when the statement is sent.
      const seen = version
      await tick()
      return seen
    })
    const [a, b, c] = [read.get(), read.get(), read.get()]
    version = 11
    // a was sent before the write; b and c arrived after it was sent and share the next read.
    assert.deepEqual(await Promise.all([a, b, c]), [10, 11, 11])
    assert.equal(reads, 2)
  })
})
