import { test } from '@japa/runner'
import { buildDocument } from '#openapi/document'
import { isolate } from '#tests/helpers/database'
import { seededAdmin } from '#tests/helpers/rbac'

/**
 * The contract suite: generated from /api/openapi.json, so a new operation is covered the day it
 * is added. For every operation: no token where the document asks for one -> 401; a JSON body
 * with a key its schema does not declare, and a body that is not an object -> 422 naming the
 * field; a numeric path id past int4 -> 404. Every answer is also checked against the document
 * by the suite's hook (tests/helpers/openapi_contract.ts), and openapi.spec.ts fails on a route
 * the document lacks.
 */
type Operation = {
  method: string
  path: string
  secured: boolean
  body: boolean
  numericIds: string[]
  /** Other path parameters: a value their schema's pattern accepts. */
  values: Record<string, string>
  responses: string[]
}

/** A value for a string path parameter that its pattern (if any) accepts. */
function valueFor(schema: { pattern?: string } = {}) {
  const candidates = ['contract_suite', 'A'.repeat(16), 'A'.repeat(22), 'contract-suite']
  const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined
  const value = candidates.find((candidate) => !pattern || pattern.test(candidate))
  if (!value) throw new Error(`no value for the pattern ${schema.pattern}`)
  return value
}

async function operations(): Promise<Operation[]> {
  const { document } = await buildDocument({ title: 'contract suite', version: '0' })
  const found: Operation[] = []
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const parameters: any[] = operation.parameters ?? []
      found.push({
        method: method.toUpperCase(),
        path,
        secured: (operation.security ?? document.security ?? []).some(
          (requirement: object) => 'bearerAuth' in requirement
        ),
        body: Boolean(operation.requestBody?.content?.['application/json']),
        numericIds: parameters
          .filter((p) => p.in === 'path' && p.schema?.type === 'integer')
          .map((p) => p.name),
        values: Object.fromEntries(
          parameters
            .filter((p) => p.in === 'path' && p.schema?.type !== 'integer')
            .map((p) => [p.name, valueFor(p.schema)])
        ),
        responses: Object.keys(operation.responses),
      })
    }
  }
  return found
}

/** A concrete URL: integer ids as given, other parameters a value their schema accepts. */
const urlOf = (operation: Operation, id: string) =>
  operation.path.replace(/\{(\w+)\}/g, (_, name) => operation.values[name] ?? id)

const describe = (operation: Operation) => `${operation.method} ${operation.path}`

test.group('Contract suite: every operation of the document', (group) => {
  isolate(group)

  test('no token where the document asks for one -> 401', async ({ client, assert }) => {
    const secured = (await operations()).filter((operation) => operation.secured)
    assert.isAbove(secured.length, 50)
    const wrong: string[] = []
    for (const operation of secured) {
      const request = client.request(urlOf(operation, '1'), operation.method)
      if (operation.body) request.json({})
      const response = await request
      if (response.status() !== 401 || !operation.responses.includes('401')) {
        wrong.push(`${describe(operation)} -> ${response.status()}`)
      }
    }
    assert.deepEqual(wrong, [])
  })

  test('an unknown key, and a body that is not an object -> 422 naming the field', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const withBody = (await operations()).filter((operation) => operation.body)
    assert.isAbove(withBody.length, 30)
    const wrong: string[] = []
    for (const operation of withBody) {
      for (const [body, field] of [
        [{ contractSuiteUnknown: 1 }, 'contractSuiteUnknown'],
        [[], 'input'],
      ] as const) {
        const request = client.request(urlOf(operation, '1'), operation.method).json(body)
        const response = await (operation.secured ? request.loginAs(admin) : request)
        const error = response.body()?.errors?.[0]
        if (
          response.status() !== 422 ||
          error?.field !== field ||
          !operation.responses.includes('422')
        ) {
          wrong.push(`${describe(operation)} ${JSON.stringify(body)} -> ${response.status()}`)
        }
      }
    }
    assert.deepEqual(wrong, [])
  })

  test('a numeric path id past int4 -> 404, never a database error', async ({ client, assert }) => {
    const admin = await seededAdmin()
    const withIds = (await operations()).filter((operation) => operation.numericIds.length > 0)
    assert.isAbove(withIds.length, 20)
    const wrong: string[] = []
    for (const operation of withIds) {
      for (const id of ['2147483648', '99999999999']) {
        const request = client.request(urlOf(operation, id), operation.method)
        if (operation.body) request.json({})
        const response = await (operation.secured ? request.loginAs(admin) : request)
        if (response.status() !== 404) {
          wrong.push(`${describe(operation)} id ${id} -> ${response.status()}`)
        }
      }
    }
    assert.deepEqual(wrong, [])
  })
})
