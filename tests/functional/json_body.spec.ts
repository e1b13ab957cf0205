import { test } from '@japa/runner'
import { request as httpRequest } from 'node:http'
import { gzipSync } from 'node:zlib'
import User from '#models/user'
import env from '#start/env'
import { isolate } from '#tests/helpers/database'
import { TEST_PASSWORD, createAdmin, sessionToken } from '#tests/helpers/auth'

/**
 * Request bodies over real HTTP: plain JSON is read by app/core/json_body.ts, everything else by
 * AdonisJS's bodyparser, with the same answers either way (config/bodyparser.ts: JSON up to 512 KB,
 * empty strings become null).
 */

type Reply = { status: number; body: any }

/** Sends `chunks` one write each (no Content-Length unless given: chunked transfer). */
function send(path: string, headers: Record<string, string>, chunks: (string | Buffer)[]) {
  return new Promise<Reply>((resolve, reject) => {
    const req = httpRequest(
      { host: env.get('HOST'), port: env.get('PORT'), path, method: 'PUT', headers, agent: false },
      (res) => {
        const parts: Buffer[] = []
        res.on('data', (chunk: Buffer) => parts.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8')
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null })
        })
      }
    )
    req.on('error', reject)
    for (const chunk of chunks) req.write(chunk)
    req.end()
  })
}

const json = (value: unknown) => JSON.stringify(value)

test.group('Request bodies: JSON read by the app, the rest by the bodyparser', (group) => {
  isolate(group)

  let auth: Record<string, string>
  let userId: number
  group.each.setup(async () => {
    const user = await createAdmin('body.reader')
    userId = user.id
    auth = { authorization: `Bearer ${(await sessionToken(user.id, user.tokenVersion)).token}` }
  })

  const profile = (headers: Record<string, string>, ...chunks: (string | Buffer)[]) =>
    send('/api/auth/profile', { ...auth, ...headers }, chunks)

  test('{name}: parsed, empty strings become null')
    .with([
      { name: 'application/json', type: 'application/json' },
      { name: 'a UTF-8 charset', type: 'Application/JSON; charset="UTF-8"' },
      // As the bodyparser does: JSON is UTF-8 whatever the charset says.
      { name: 'another charset', type: 'application/json; charset=latin1' },
      { name: 'gzip (the bodyparser)', type: 'application/json', gzip: true },
    ])
    .run(async ({ assert }, row) => {
      await User.query().where('id', userId).update({ email: 'before@example.com' })
      const text = `{"nickname":"Zoë","email":"","currentPassword":"${TEST_PASSWORD}"}`
      const body = row.gzip ? gzipSync(text) : Buffer.from(text, 'utf8')
      const reply = await profile(
        {
          'content-type': row.type,
          'content-length': String(body.length),
          ...(row.gzip ? { 'content-encoding': 'gzip' } : {}),
        },
        body
      )
      assert.equal(reply.status, 200, JSON.stringify(reply.body))
      assert.equal(reply.body.data.nickname, 'Zoë')
      assert.isNull(reply.body.data.email)
      const stored = await User.findOrFail(userId)
      assert.isNull(stored.email)
    })

  test('a body sent in pieces without Content-Length is read whole', async ({ assert }) => {
    const reply = await profile(
      { 'content-type': 'application/json' },
      '{"nick',
      'name":"Pi',
      'eces"}'
    )
    assert.equal(reply.status, 200)
    assert.equal(reply.body.data.nickname, 'Pieces')
  })

  test('over the limit: 413 whether announced or streamed, nothing written', async ({ assert }) => {
    const big = json({ nickname: 'x'.repeat(600 * 1024) })
    const announced = await profile(
      { 'content-type': 'application/json', 'content-length': String(big.length) },
      big
    )
    const streamed = await profile(
      { 'content-type': 'application/json' },
      ...Array.from({ length: 20 }, (_, i) => big.slice(i * 32 * 1024, (i + 1) * 32 * 1024))
    )
    for (const reply of [announced, streamed]) {
      assert.equal(reply.status, 413)
      assert.deepEqual(reply.body, {
        errors: [{ code: 'E_PAYLOAD_TOO_LARGE', message: 'Request body too large' }],
      })
    }
    assert.notEqual((await User.findOrFail(userId)).nickname?.[0], 'x')
  })

  test('malformed JSON 400, JSON that is not an object 422, NUL 422 with its field', async ({
    assert,
  }) => {
    const type = { 'content-type': 'application/json' }
    const malformed = await profile(type, '{"nickname": "a", ')
    assert.equal(malformed.status, 400)
    assert.deepEqual(malformed.body, {
      errors: [{ code: 'E_BAD_REQUEST', message: 'Malformed JSON body' }],
    })
    for (const text of ['"just a string"', '42', '   ']) {
      const reply = await profile(type, text)
      assert.equal(reply.status, 422, text)
      assert.equal(reply.body.errors[0].message, 'Invalid JSON, only supports object and array')
    }
    const nul = await profile(type, json({ nickname: 'a\u0000b', email: '' }))
    assert.equal(nul.status, 422)
    assert.include(nul.body.errors[0], { field: 'nickname', rule: 'noNullBytes' })
    // An empty body is an empty object: nothing to change, the profile answered as it is.
    const empty = await profile({ ...type, 'content-length': '0' })
    assert.equal(empty.status, 200)
  })
})
