import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { safeStringify } from '@poppinss/utils/json'
import { compileStringify } from '#core/compiled_json'
import { named, pageMetaSchema, s } from '#openapi/schema'
import { user } from '#resources/users'

/**
 * The compiled stringifier writes the bytes of the safe stringify it replaced, whatever the value
 * (tests/helpers/compiled_json_check.ts compares them on every answer of the functional suite).
 */
const tree = named(
  'CompiledTree',
  s.object({ id: s.integer(), name: s.string(), children: s.array(s.ref('CompiledTree')) })
)
const page = s.object({ data: s.array(user.schema), meta: pageMetaSchema })
const list = s.object({ data: s.array(tree) })

const at = DateTime.fromISO('2026-12-07T04:05:06.789Z', { zone: 'utc' })
const row = (overrides: Record<string, unknown> = {}) => ({
  id: 7,
  account: 'zoë',
  nickname: 'Zoë 漢字 😀 \u2028\u2029 "q" \\ \u0000\u001f\t\n',
  email: null,
  emailVerified: false,
  status: 'enabled',
  lastLoginAt: at,
  twoFactorEnabled: true,
  createdAt: at.toJSDate(),
  passwordChangeRequired: false,
  passwordExpiresAt: null,
  avatarUrl: '/a\ud800b\udc00',
  updatedAt: '2026-12-07T04:05:06.789+00:00',
  deptId: null,
  lockedUntil: null,
  roleIds: [1, 2],
  roles: [{ id: 1, code: 'r', name: 'R' }],
  ...overrides,
})

test.group('Compiled JSON', () => {
  test('the same bytes as the safe stringify: {name}')
    .with([
      {
        name: 'a page',
        schema: page,
        value: {
          data: [row(), row({ id: 8 })],
          meta: { total: 2, pageNum: 1, pageSize: 10, lastPage: 1 },
        },
      },
      {
        name: 'an empty page',
        schema: page,
        value: { data: [], meta: { total: 0, pageNum: 1, pageSize: 10, lastPage: 1 } },
      },
      {
        name: 'undefined, functions, symbols dropped; NaN, -0, Infinity',
        schema: page,
        value: {
          data: [
            row({
              email: undefined,
              nickname: () => 1,
              id: -0,
              deptId: Number.NaN,
              status: Symbol('x'),
              roleIds: [Infinity, undefined, () => 1],
            }),
          ],
        },
      },
      {
        name: 'wrong types, extra and integer-like keys',
        schema: page,
        value: {
          data: [
            row({
              id: '7',
              emailVerified: 1,
              roles: 'none',
              extra: { b: 1, a: [null] },
              10: 'ten',
              2: 'two',
            }),
          ],
          more: true,
        },
      },
      {
        name: 'own toJSON, class instances, Map, sparse arrays',
        schema: page,
        value: {
          data: [
            row({
              roles: [
                new Map(),
                { toJSON: () => 'x' },
                new (class {
                  a = 1
                })(),
              ],
            }),
            row({ roleIds: new Array(3) }),
          ],
        },
      },
      {
        name: 'dates: invalid, another zone',
        schema: page,
        value: {
          data: [
            row({
              passwordExpiresAt: DateTime.invalid('test'),
              lastLoginAt: at.setZone('Asia/Tokyo'),
              createdAt: 'not a date',
            }),
          ],
        },
      },
      { name: 'a BigInt (safe: a string)', schema: page, value: { data: [row({ id: 10n })] } },
      {
        name: 'a recursive tree',
        schema: list,
        value: { data: [{ id: 1, name: 'a', children: [{ id: 2, name: 'b', children: [] }] }] },
      },
      { name: 'null and non-object bodies', schema: list, value: { data: null } },
    ])
    .run(({ assert }, { schema, value }) => {
      assert.strictEqual(compileStringify(schema)(value), safeStringify(value))
    })

  test('a cycle: the safe stringify answers for the whole body', ({ assert }) => {
    const node: any = { id: 1, name: 'a', children: [] }
    node.children.push(node)
    const value = { data: [node] }
    assert.strictEqual(compileStringify(list)(value), safeStringify(value))
  })
})
