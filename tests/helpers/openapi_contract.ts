import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { ApiResponse } from '@japa/api-client'
import { buildDocument } from '#openapi/document'

/**
 * Validates answers of the app against its own OpenAPI document (the functional suite registers
 * this for every request it makes, tests/bootstrap.ts): a drift between code and document fails
 * the test that made the request.
 */

export type Exchange = {
  method: string
  /** Path with or without the query string. */
  url: string
  status: number
  contentType: string | undefined
  body: unknown
}

type Route = { method: string; path: string; pattern: RegExp; responses: Record<string, any> }

type Contract = {
  document: Record<string, any>
  routes: Route[]
  validator(key: string, schema: unknown): ValidateFunction
}

let loading: Promise<Contract> | undefined

function load(): Promise<Contract> {
  loading ??= (async () => {
    const { document } = await buildDocument({ title: 'tests', version: '0' })
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    const cache = new Map<string, ValidateFunction>()
    const routes: Route[] = []
    for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
      const pattern = new RegExp('^' + path.replace(/\{[^}]+\}/g, '[^/]+') + '$')
      for (const [method, operation] of Object.entries(operations)) {
        routes.push({ method: method.toUpperCase(), path, pattern, responses: operation.responses })
      }
    }
    // Literal segments win over parameters (menus/tree before menus/{id}).
    routes.sort((a, b) => a.path.split('{').length - b.path.split('{').length)
    return {
      document,
      routes,
      validator(key, schema) {
        let validate = cache.get(key)
        if (!validate) {
          // Refs point at #/components/...: compile the schema with the document's components.
          validate = ajv.compile({ allOf: [schema], components: document.components })
          cache.set(key, validate)
        }
        return validate
      },
    }
  })()
  return loading
}

/** Throws when the exchange does not match the document. */
export async function checkAgainstContract(exchange: Exchange) {
  const contract = await load()
  // The router ignores a trailing slash (`/api/admin/roles/` is the list), so the match does too.
  const path = exchange.url
    .replace(/^https?:\/\/[^/]+/, '')
    .split('?')[0]
    .replace(/(.)\/+$/, '$1')
  if (!path.startsWith('/api')) return
  const method = exchange.method.toUpperCase() === 'HEAD' ? 'GET' : exchange.method.toUpperCase()
  const route = contract.routes.find((r) => r.method === method && r.pattern.test(path))
  const where = `${exchange.method} ${path} -> ${exchange.status}`

  let response: any
  if (route) {
    response = route.responses[String(exchange.status)] ?? route.responses.default
  } else if (exchange.status >= 400) {
    response = contract.document.components.responses.Error // no route: 404/405 in the contract
  } else {
    throw new Error(`OpenAPI: ${where} answered, but the document has no such operation`)
  }
  if (response.$ref) response = contract.document.components.responses[response.$ref.split('/')[3]]
  if (exchange.method.toUpperCase() === 'HEAD') return
  if (!response.content) {
    if (
      exchange.body !== undefined &&
      exchange.body !== '' &&
      Object.keys(exchange.body as object).length
    ) {
      throw new Error(`OpenAPI: ${where} has a body, the document declares none`)
    }
    return
  }
  // An export declares one media type per format.
  const declared = Object.entries<any>(response.content)
  const match = declared.find(([type]) => exchange.contentType?.startsWith(type))
  if (!match) {
    const types = declared.map(([type]) => type).join(' or ')
    throw new Error(`OpenAPI: ${where} is ${exchange.contentType}, the document says ${types}`)
  }
  const [mediaType, media] = match
  if (mediaType !== 'application/json') return
  const key = `${route?.method} ${route?.path} ${exchange.status}`
  const validate = contract.validator(key, media.schema)
  if (!validate(exchange.body)) {
    const problems = validate.errors?.map((e) => `${e.instancePath || '/'} ${e.message}`)
    throw new Error(`OpenAPI: ${where} does not match the document: ${problems?.join('; ')}`)
  }
}

/** Whether requests are checked right now (on while the functional suite runs). */
export const contractChecks = { enabled: false }

/** ApiClient teardown hook. */
export async function contractTeardown(response: ApiResponse) {
  if (!contractChecks.enabled) return
  const { method, endpoint } = response.request.config
  await checkAgainstContract({
    method,
    url: endpoint,
    status: response.status(),
    contentType: response.header('content-type'),
    body: response.hasBody() ? response.body() : response.text() || undefined,
  })
}
