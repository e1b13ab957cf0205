import { test } from '@japa/runner'
import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import { runAce } from '#tests/helpers/app_process'
import env from '#start/env'
import { Validator } from '@seriousme/openapi-schema-validator'
import { buildDocument, routeOperations } from '#openapi/document'
import { ERROR_CODES } from '#exceptions/error_codes'
import { permissionOf } from '#middleware/permission_middleware'
import { createRoleValidator, listRolesValidator } from '#validators/admin/role'
import { isolate } from '#tests/helpers/database'
import { checkAgainstContract } from '#tests/helpers/openapi_contract'
import { SCALAR_SCRIPT } from '#openapi/reference_assets'

const toPath = (pattern: string) => pattern.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

test.group('OpenAPI: the document is generated from the code', (group) => {
  isolate(group)

  test('GET /api/openapi.json is a valid OpenAPI 3.1 document', async ({ client, assert }) => {
    const response = await client.get('/api/openapi.json')
    response.assertStatus(200)
    const document = response.body()
    assert.equal(document.openapi, '3.1.0')
    const result = await new Validator().validate(document)
    assert.deepEqual(result.errors ?? [], [])
    assert.isTrue(result.valid)
    // Kept as a CI artifact, for client generators and for review.
    await mkdir(app.makePath('tmp'), { recursive: true })
    await writeFile(app.makePath('tmp/openapi.json'), JSON.stringify(document, null, 2))
  })

  test('every route of the router has its operation; nothing is undocumented', async ({
    assert,
  }) => {
    const { document, undocumented } = await buildDocument({ title: 't', version: '0' })
    assert.deepEqual(undocumented, [])
    const operations = routeOperations()
    assert.isAbove(operations.length, 40)
    for (const { route, method } of operations) {
      const operation = document.paths[toPath(route.pattern)]?.[method.toLowerCase()]
      assert.exists(operation, `${method} ${route.pattern}`)
    }
    const documented = Object.values<Record<string, unknown>>(document.paths).flatMap((item) =>
      Object.keys(item)
    )
    assert.lengthOf(documented, operations.length)
  })

  test('every admin operation carries its route permission as x-permission, and Bearer security', async ({
    assert,
  }) => {
    const { document } = await buildDocument({ title: 't', version: '0' })
    for (const { route, method } of routeOperations()) {
      const operation = document.paths[toPath(route.pattern)][method.toLowerCase()]
      const code = permissionOf(route)
      if (route.pattern.startsWith('/api/admin/')) {
        assert.isString(code, route.pattern)
        assert.equal(operation['x-permission'], code, `${method} ${route.pattern}`)
        assert.deepEqual(operation.security, [{ bearerAuth: [] }])
        assert.properties(operation.responses, ['401', '403'])
      } else {
        assert.notProperty(operation, 'x-permission', route.pattern)
      }
    }
    const me = document.paths['/api/auth/me'].get
    assert.deepEqual(me.security, [{ bearerAuth: [] }])
    // The account gate: /me accepts a pending account, the profile refuses it with a 403.
    assert.notProperty(me.responses, '403')
    assert.property(document.paths['/api/auth/profile'].get.responses, '403')
    // Public operations declare `security: []`; the metrics scrape its header secret.
    for (const path of [
      '/api/articles',
      '/api/articles/{slug}',
      '/api/health/ready',
      '/api/auth/captcha',
      '/api/auth/login',
      '/api/openapi.json',
      '/api/docs',
    ]) {
      const operation = document.paths[path].get ?? document.paths[path].post
      assert.deepEqual(operation.security, [], path)
    }
    assert.deepEqual(document.paths['/api/metrics'].get.security, [{ monitoringSecret: [] }])
    assert.deepEqual(document.servers, [{ url: '/', description: 'The server of this document' }])
  })

  test('request schemas are the validators’ own JSON Schema', async ({ assert }) => {
    const { document } = await buildDocument({ title: 't', version: '0' })
    const create = { ...(createRoleValidator.toJSONSchema() as any) }
    delete create.$schema
    assert.deepEqual(
      document.paths['/api/admin/roles'].post.requestBody.content['application/json'].schema,
      create
    )
    const query = document.paths['/api/admin/roles'].get.parameters.map((p: any) => p.name)
    const { properties } = listRolesValidator.toJSONSchema() as any
    assert.deepEqual(query, Object.keys(properties))
    // Path ids are integers in the range of the ids in the bodies (app/core/route_ids.ts).
    const pathParam = document.paths['/api/admin/roles/{id}'].get.parameters[0]
    assert.equal(pathParam.in, 'path')
    assert.deepEqual(pathParam.schema, { type: 'integer', minimum: 1, maximum: 2_147_483_647 })
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const operation of Object.values<any>(item)) {
        for (const parameter of operation.parameters.filter((p: any) => p.name === 'id')) {
          const session = /\/(sessions|devices)\/\{id\}/.test(path) // random base64url ids
          assert.equal(parameter.schema.type, session ? 'string' : 'integer', path)
        }
      }
    }
  })

  test('the error contract lists every code with its status', async ({ assert }) => {
    const { document } = await buildDocument({ title: 't', version: '0' })
    const entry = document.components.schemas.ErrorEntry
    assert.sameMembers(entry.properties.code.enum, Object.keys(ERROR_CODES))
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      assert.include(document.components.schemas.Error.description, `\`${code}\` | ${status}`)
    }
  })

  test('a body that drifts from the document is caught (extra field, missing field, wrong type)', async ({
    assert,
  }) => {
    const role = {
      id: 1,
      code: 'r',
      name: 'R',
      status: 'enabled',
      isSystem: false,
      sort: 0,
      remark: null,
      dataScope: 'all',
      createdAt: '2026-11-24T10:00:00.000+00:00',
      updatedAt: '2026-11-24T10:00:00.000+00:00',
      menuIds: [],
      deptIds: [],
    }
    const exchange = (body: unknown) => ({
      method: 'GET',
      url: '/api/admin/roles/1',
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body,
    })
    await checkAgainstContract(exchange({ data: role }))
    await assert.rejects(
      () => checkAgainstContract(exchange({ data: { ...role, tokenVersion: 3 } })),
      /does not match/
    )
    const missing: Partial<typeof role> = { ...role }
    delete missing.remark
    await assert.rejects(() => checkAgainstContract(exchange({ data: missing })), /does not match/)
    await assert.rejects(
      () => checkAgainstContract(exchange({ data: { ...role, id: '1' } })),
      /does not match/
    )
    await assert.rejects(
      () => checkAgainstContract({ ...exchange({ errors: [] }), status: 403 }),
      /does not match/
    )
    await assert.rejects(
      () => checkAgainstContract({ ...exchange({}), url: '/api/nowhere' }),
      /no such operation/
    )
  })

  test('node ace openapi:export writes the document the server serves', async ({
    client,
    assert,
  }) => {
    const file = app.makePath('tmp/openapi-export.json')
    const run = runAce(['openapi:export', '--output', file])
    assert.equal(run.status, 0, run.output)
    const exported = JSON.parse(await readFile(file, 'utf8'))
    assert.isAbove(Object.keys(exported.paths).length, 30)
    assert.deepEqual(exported, (await client.get('/api/openapi.json')).body())
  })

  test('GET /api/docs is the reference page of /api/openapi.json, its script served by the app', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/api/docs')
    response.assertStatus(200)
    assert.match(response.header('content-type') ?? '', /^text\/html/)
    const html = response.text()
    assert.include(html, 'data-url="/api/openapi.json"')
    // Every reference is local (works offline): no URL with a host, the script pinned by digest.
    assert.notMatch(html, /(src|href)="(https?:)?\/\//)
    assert.include(html, `src="${SCALAR_SCRIPT.src}" integrity="${SCALAR_SCRIPT.integrity}"`)

    const script = await client.get(SCALAR_SCRIPT.src)
    script.assertStatus(200)
    assert.match(script.header('content-type') ?? '', /^text\/javascript/)
    assert.equal(script.header('cache-control'), 'public, max-age=31536000, immutable')
    const digest = createHash('sha384').update(script.text()).digest('base64')
    assert.equal(`sha384-${digest}`, SCALAR_SCRIPT.integrity)
    // The installed package is the pinned version.
    const pkg = JSON.parse(
      await readFile(app.makePath('node_modules/@scalar/api-reference/package.json'), 'utf8')
    )
    assert.equal(pkg.version, SCALAR_SCRIPT.version)
    assert.include(SCALAR_SCRIPT.file, pkg.version)
    const cached = await client
      .get(SCALAR_SCRIPT.src)
      .header('if-none-match', script.header('etag')!)
    cached.assertStatus(304)
    ;(await client.get('/api/docs/assets/other.js')).assertStatus(404)
  })

  test('OPENAPI_ENABLED=false: both answer 404 in the error contract', async ({
    client,
    cleanup,
  }) => {
    const before = env.get('OPENAPI_ENABLED')
    env.set('OPENAPI_ENABLED', false)
    cleanup(() => {
      env.set('OPENAPI_ENABLED', before as any)
      // env.set writes process.env too; child app processes of later tests inherit it.
      if (before === undefined) delete process.env.OPENAPI_ENABLED
    })
    for (const path of ['/api/openapi.json', '/api/docs', SCALAR_SCRIPT.src]) {
      const response = await client.get(path)
      response.assertStatus(404)
      response.assertBody({ errors: [{ code: 'E_NOT_FOUND', message: 'Resource not found' }] })
    }
  })
})
