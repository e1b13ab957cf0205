import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Role from '#models/role'
import { isolate } from '#tests/helpers/database'
import { seededAdmin } from '#tests/helpers/rbac'

/**
 * A body is held to the shape /api/openapi.json gives its operation (app/core/body_shape.ts):
 * an unknown key, null for a field that is not nullable, "" for one that "" cannot clear, and a
 * body that is not an object are 422 E_VALIDATION_ERROR naming the field, and nothing is written.
 */
test.group('Request bodies: the declared shape', (group) => {
  isolate(group)

  /** The answer's first error, as `{ code, field, rule }`. */
  const refusal = (response: any) => {
    response.assertStatus(422)
    const [error] = response.body().errors
    return { code: error.code, field: error.field, rule: error.rule }
  }

  test('an unknown key is refused and named; nothing is written', async ({ client, assert }) => {
    const admin = await seededAdmin()
    const response = await client
      .post('/api/admin/dicts')
      .json({ code: 'colours', name: 'Colours', colour: 'red' })
      .loginAs(admin)
    assert.deepEqual(refusal(response), {
      code: 'E_VALIDATION_ERROR',
      field: 'colour',
      rule: 'unknownProperty',
    })
    assert.match(response.body().errors[0].message, /colour/)
    assert.isNull(await db.from('dict_types').where('code', 'colours').first())
  })

  test('null and "" for a field that is not nullable are refused; "" clears a nullable one', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const role = await Role.create({ code: 'writer', name: 'Writer', remark: 'Writes' })
    for (const value of [null, '']) {
      const response = await client
        .put(`/api/admin/roles/${role.id}`)
        .json({ code: value })
        .loginAs(admin)
      assert.deepEqual(refusal(response), {
        code: 'E_VALIDATION_ERROR',
        field: 'code',
        rule: 'nullable',
      })
    }
    assert.equal((await Role.findOrFail(role.id)).code, 'writer')
    // remark is nullable: "" clears it.
    const cleared = await client
      .put(`/api/admin/roles/${role.id}`)
      .json({ remark: '' })
      .loginAs(admin)
    cleared.assertStatus(200)
    assert.isNull((await Role.findOrFail(role.id)).remark)
  })

  test('a body that is not an object is refused, and writes no audit row', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const role = await Role.create({ code: 'writer', name: 'Writer' })
    const audits = async () => Number((await db.from('audit_logs').count('* as n'))[0].n)
    const before = await audits()
    const response = await client.put(`/api/admin/roles/${role.id}`).json([]).loginAs(admin)
    assert.deepEqual(refusal(response), {
      code: 'E_VALIDATION_ERROR',
      field: 'input',
      rule: 'object',
    })
    assert.equal(await audits(), before)
  })

  test('nested objects and arrays are held to their shape too', async ({ client, assert }) => {
    const admin = await seededAdmin()
    const response = await client
      .post('/api/admin/roles')
      .json({ code: 'nested', name: 'Nested', deptIds: [1, null] })
      .loginAs(admin)
    assert.deepEqual(refusal(response), {
      code: 'E_VALIDATION_ERROR',
      field: 'deptIds.1',
      rule: 'nullable',
    })
  })

  test('without a token the answer is still 401, whatever the body', async ({ client }) => {
    const response = await client.post('/api/admin/dicts').json({ unknown: true })
    response.assertStatus(401)
  })
})
