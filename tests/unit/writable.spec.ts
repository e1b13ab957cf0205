import { test } from '@japa/runner'
import vine from '@vinejs/vine'
import { writable } from '#validators/writable'
import { line } from '#validators/text'

/** A resource of three fields: one set once, one with a computed default, one imported by code. */
const fields = writable({
  code: { rule: () => line(8).minLength(2), update: false, import: { example: 'ab' } },
  name: {
    rule: () => line(8).optional(),
    default: (input: { code: string }) => input.code.toUpperCase(),
    import: {},
  },
  tags: {
    rule: () => vine.array(vine.number()).optional(),
    default: null,
    import: { column: 'labels', rule: () => vine.array(line(8)), cell: (text) => text.split('|') },
  },
})

const errorsOf = async (
  validator: { validate(input: unknown): Promise<unknown> },
  input: object
) => {
  try {
    await validator.validate(input)
    return []
  } catch (error) {
    return (error as { messages: { field: string; rule: string }[] }).messages.map(
      (entry) => `${entry.field} ${entry.rule}`
    )
  }
}

test.group('writable: one declaration, the request shapes derived', () => {
  test('create takes every field as declared; update leaves out set-once ones, all optional', async ({
    assert,
  }) => {
    const create = vine.create(fields.create())
    const update = vine.create(fields.update())
    assert.deepEqual(await errorsOf(create, {}), ['code required'])
    assert.deepEqual(await errorsOf(create, { code: 'x' }), ['code minLength'])
    assert.deepEqual(await update.validate({}), {})
    assert.deepEqual(await update.validate({ code: 'zz', name: 'N' }), { name: 'N' })
    assert.deepEqual(await errorsOf(update, { name: 'x'.repeat(9) }), ['name maxLength'])
  })

  test('the import: columns, example, cells (empty: left out) and its own rule per column', async ({
    assert,
  }) => {
    assert.deepEqual(fields.columns, ['code', 'name', 'labels'])
    assert.deepEqual(fields.example, ['ab', '', ''])
    const row = vine.create(fields.importRow())
    const input = fields.cells({ code: 'ab', name: '', labels: 'x|y' })
    assert.deepEqual(input, { code: 'ab', name: undefined, labels: ['x', 'y'] })
    assert.deepEqual(await row.validate(input), { code: 'ab', labels: ['x', 'y'] })
    assert.deepEqual(await errorsOf(row, fields.cells({ code: 'ab', labels: 'x'.repeat(9) })), [
      'labels.0 maxLength',
    ])
  })

  test('defaults fill only what was left out, computed from the input where declared so', ({
    assert,
  }) => {
    assert.deepEqual(fields.withDefaults({ code: 'ab' }), { code: 'ab', name: 'AB', tags: null })
    assert.deepEqual(fields.withDefaults({ code: 'ab', name: 'Given', tags: [1] }), {
      code: 'ab',
      name: 'Given',
      tags: [1],
    })
  })
})
