import { test } from '@japa/runner'
import { ancestorClosure } from '#services/admin/menu_service'

/**
 * 1 (root) > 2 > 3 > 4 (a button)
 *          > 5
 * 6 (root) > 7
 */
const tree = new Map<number, number | null>([
  [1, null],
  [2, 1],
  [3, 2],
  [4, 3],
  [5, 1],
  [6, null],
  [7, 6],
])

const closure = (ids: number[], parents: ReadonlyMap<number, number | null> = tree) =>
  ancestorClosure(ids, parents).sort((a, b) => a - b)

test.group('Menu ancestor closure', () => {
  test('adds every ancestor up to the root, and nothing else', ({ assert }) => {
    assert.deepEqual(closure([4]), [1, 2, 3, 4])
    assert.deepEqual(closure([5]), [1, 5])
    assert.deepEqual(closure([1]), [1])
    assert.deepEqual(closure([7]), [6, 7])
  })

  test('several ids: shared ancestors appear once', ({ assert }) => {
    assert.deepEqual(closure([4, 5]), [1, 2, 3, 4, 5])
    assert.deepEqual(closure([5, 4, 7, 4]), [1, 2, 3, 4, 5, 6, 7])
    assert.deepEqual(closure([]), [])
  })

  test('an id missing from the map, or a dangling parent, ends the chain', ({ assert }) => {
    assert.deepEqual(closure([99]), [99])
    assert.deepEqual(closure([3], new Map([[3, 42]])), [3, 42])
  })

  test('a cycle in corrupted data terminates', ({ assert }) => {
    const cyclic = new Map<number, number | null>([
      [1, 3],
      [2, 1],
      [3, 2],
      [4, 2],
      [5, 5],
    ])
    assert.deepEqual(closure([4], cyclic), [1, 2, 3, 4])
    assert.deepEqual(closure([1, 2, 3], cyclic), [1, 2, 3])
    assert.deepEqual(closure([5], cyclic), [5])
  })
})
