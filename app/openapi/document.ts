import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import { ERROR_CODES } from '#exceptions/error_codes'
import { REQUIREMENTS, type Requirement } from '#auth/account_requirements'
import { permissionOf } from '#middleware/permission_middleware'
import type { Operation } from '#openapi/contract'
import { nameOf, pageMetaSchema, s, type Schema } from '#openapi/schema'
import { ID_PARAM } from '#core/route_ids'
import { MAX_ID } from '#validators/admin/common'

/**
 * The OpenAPI 3.1 document, generated from the running application:
 * - paths, methods, path parameters and their matchers from the router;
 * - security (Bearer JWT) from the `auth`/`can` middleware, `x-permission` from `can`'s code;
 * - query, path and body schemas from the VineJS validators the actions run (`toJSONSchema()`);
 * - success bodies from the schemas declared beside the transformers;
 * - every error from one Error component built from ERROR_CODES.
 * Each controller declares its actions in `static contract` (app/openapi/contract.ts).
 */

type StoredRoute = ReturnType<typeof router.toJSON>[string][number]

type Built = { document: Record<string, any>; undocumented: string[] }

const ERROR_STATUS_NAMES: Record<number, string> = {
  400: 'Bad request, or captcha refused',
  401: 'Not authenticated',
  403: 'Permission refused, or the account must change its password or enrol a second factor first',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  422: 'Invalid input',
  429: 'Rate limited',
  503: 'Data store unavailable',
}

/** `/api/admin/users/:id` -> `/api/admin/users/{id}`. */
const toOpenApiPath = (pattern: string) => pattern.replace(/:([A-Za-z0-9_]+)\??/g, '{$1}')

/** The named middleware of a stored route: `[{ name: 'auth', args: undefined }, ...]`. */
function namedMiddleware(route: StoredRoute) {
  return [...route.middleware.all()].filter(
    (entry) => typeof entry === 'object' && entry !== null && typeof entry.name === 'string'
  ) as unknown as { name: string; args?: unknown }[]
}

function tagOf(pattern: string) {
  if (pattern.startsWith('/api/admin/')) return `admin: ${pattern.split('/')[3]}`
  if (pattern.startsWith('/api/auth/') || pattern.startsWith('/api/avatars/')) return 'auth'
  if (pattern.startsWith('/api/health') || pattern === '/api/metrics') return 'health'
  if (pattern.startsWith('/api/articles')) return 'public'
  return 'contract'
}

/** JSON Schema of a validator, without the dialect marker (the document sets the dialect). */
function validatorSchema(validator: { toJSONSchema(): unknown }): Schema {
  const schema = { ...(validator.toJSONSchema() as Schema) }
  delete schema.$schema
  return schema
}

function parametersFrom(validator: { toJSONSchema(): unknown } | undefined, where: 'query') {
  if (!validator) return []
  const schema = validatorSchema(validator) as { properties?: Record<string, Schema> }
  const required = new Set((schema as any).required ?? [])
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: required.has(name),
    schema: property,
  }))
}

/**
 * The schema of a path parameter from its route matcher: the one id matcher (app/core/route_ids.ts)
 * is an integer in the range of the ids in the bodies; any other matcher is a string with the
 * matcher's pattern.
 */
function matcherSchema(matcher: { match?: RegExp; cast?: unknown } | undefined): Schema {
  if (matcher?.match === ID_PARAM.match) return { type: 'integer', minimum: 1, maximum: MAX_ID }
  return { type: 'string', ...(matcher?.match ? { pattern: matcher.match.source } : {}) }
}

function pathParameters(route: StoredRoute, operation: Operation) {
  const names = [...route.pattern.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1])
  const declared = operation.params
    ? ((validatorSchema(operation.params).properties ?? {}) as Record<string, Schema>)
    : {}
  const matchers = route.matchers as Record<string, { match?: RegExp; cast?: unknown }>
  return names.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: declared[name] ?? matcherSchema(matchers[name]),
  }))
}

/** Success response of an operation. */
function successResponse(operation: Operation) {
  const status = operation.status ?? 200
  if (status === 204) return { [status]: { description: 'Done, no body' } }
  let schema: Schema | undefined
  let contentType = 'application/json'
  if (operation.data) schema = s.object({ data: operation.data })
  if (operation.list) schema = s.object({ data: s.array(operation.list) })
  if (operation.page) schema = s.object({ data: s.array(operation.page), meta: pageMetaSchema })
  if (operation.raw && 'content' in operation.raw) {
    const content = Object.fromEntries(
      Object.entries(operation.raw.content).map(([type, body]) => [type, { schema: body }])
    )
    return { [status]: { description: 'Success', content } }
  }
  if (operation.raw) {
    schema = operation.raw.schema
    contentType = operation.raw.contentType ?? contentType
  }
  if (!schema) throw new Error(`operation "${operation.summary}" declares no success body`)
  return { [status]: { description: 'Success', content: { [contentType]: { schema } } } }
}

/** An authenticated route the account gate may refuse (403 E_PASSWORD_CHANGE_REQUIRED, ...). */
function gated(route: StoredRoute) {
  const auth = namedMiddleware(route).find((entry) => entry.name === 'auth')
  const accepted = (auth?.args as { pending?: Requirement[] } | undefined)?.pending ?? []
  return REQUIREMENTS.some((requirement) => !accepted.includes(requirement))
}

function errorStatuses(route: StoredRoute, operation: Operation, authenticated: boolean) {
  const statuses = new Set<number>(operation.errors ?? [])
  if (authenticated) statuses.add(401)
  if (permissionOf(route) !== null || (authenticated && gated(route))) statuses.add(403)
  if (route.pattern.includes(':')) statuses.add(404)
  if (operation.query || operation.body || operation.params || operation.upload) statuses.add(422)
  return [...statuses].sort()
}

function buildOperation(route: StoredRoute, method: string, operation: Operation) {
  const permission = permissionOf(route)
  const authenticated =
    permission !== null || namedMiddleware(route).some((entry) => entry.name === 'auth')
  const responses: Record<string, unknown> = successResponse(operation)
  if (operation.conditional) responses['304'] = { description: 'Not modified (ETag matched)' }
  for (const status of errorStatuses(route, operation, authenticated)) {
    responses[status] = { $ref: `#/components/responses/Error${status}` }
  }
  responses.default = { $ref: '#/components/responses/Error' }

  return {
    operationId: route.name ?? `${method} ${route.pattern}`,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [tagOf(route.pattern)],
    // Public operations say so (`[]`): a client generator then sends no credentials there.
    security: operation.security ?? (authenticated ? [{ bearerAuth: [] }] : []),
    ...(permission !== null ? { 'x-permission': permission } : {}),
    parameters: [...pathParameters(route, operation), ...parametersFrom(operation.query, 'query')],
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: validatorSchema(operation.body) } },
          },
        }
      : {}),
    ...(operation.upload ? { requestBody: uploadBody(operation.upload.field) } : {}),
    responses,
  }
}

/** A multipart/form-data body with one required binary part. */
function uploadBody(field: string) {
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { [field]: { type: 'string', contentMediaType: 'application/octet-stream' } },
          required: [field],
        },
      },
    },
  }
}

/** Moves every named schema to components.schemas and puts a $ref in its place. */
function hoistNamed(value: unknown, components: Record<string, Schema>, isRoot = false): unknown {
  if (Array.isArray(value)) return value.map((item) => hoistNamed(item, components))
  if (typeof value !== 'object' || value === null) return value
  const name = nameOf(value as Schema)
  if (name && !isRoot) {
    if (!components[name]) {
      components[name] = {} // placeholder: a recursive schema refers to itself by name
      components[name] = hoistNamed(value, components, true) as Schema
    }
    return { $ref: `#/components/schemas/${name}` }
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, hoistNamed(item, components)])
  )
}

function errorComponents() {
  const codes = Object.keys(ERROR_CODES)
  const table = Object.entries(ERROR_CODES)
    .map(([code, { status, description }]) => `| \`${code}\` | ${status} | ${description} |`)
    .join('\n')
  const entry = s.object(
    {
      code: s.enum(codes),
      message: s.string(),
      field: s.string({ description: 'Input field (validation errors)' }),
      rule: s.string({ description: 'Failed rule (validation errors)' }),
      row: s.integer({ description: 'Row of an uploaded file (imports; the header is row 1)' }),
    },
    ['field', 'rule', 'row']
  )
  const error = {
    ...s.object(
      {
        errors: { ...s.array(s.ref('ErrorEntry')), minItems: 1 },
        report: s.record(),
      },
      ['report']
    ),
    description:
      'The error contract of every non-2xx answer (`report`: readiness only, for monitors ' +
      'presenting HEALTH_SECRET).\n\n| code | status | meaning |\n|---|---|---|\n' +
      table,
  }
  const responses: Record<string, unknown> = {
    Error: {
      description: 'Error (any other status)',
      content: { 'application/json': { schema: s.ref('Error') } },
    },
  }
  for (const [status, description] of Object.entries(ERROR_STATUS_NAMES)) {
    responses[`Error${status}`] = {
      description,
      content: { 'application/json': { schema: s.ref('Error') } },
    }
  }
  return { schemas: { Error: error, ErrorEntry: entry }, responses }
}

/** Every (method, route) pair of the router, HEAD left out (it mirrors GET). */
export function routeOperations() {
  return Object.values(router.toJSON())
    .flat()
    .flatMap((route) =>
      route.methods.filter((method) => method !== 'HEAD').map((method) => ({ route, method }))
    )
}

async function contractOf(route: StoredRoute): Promise<Operation | undefined> {
  const handler = route.handler as { reference?: unknown; method?: string }
  if (!Array.isArray(handler.reference) || typeof handler.reference[0] !== 'function') return
  const loaded = await handler.reference[0]()
  const controller = (loaded?.default ?? loaded) as { contract?: Record<string, Operation> }
  return controller.contract?.[handler.method ?? 'handle']
}

export async function buildDocument(info: {
  title: string
  version: string
  license?: { name: string; identifier: string }
}): Promise<Built> {
  const paths: Record<string, Record<string, unknown>> = {}
  const undocumented: string[] = []
  for (const { route, method } of routeOperations()) {
    const operation = await contractOf(route)
    if (!operation) {
      undocumented.push(`${method} ${route.pattern}`)
      continue
    }
    const path = toOpenApiPath(route.pattern)
    paths[path] ??= {}
    paths[path][method.toLowerCase()] = buildOperation(route, method, operation)
  }

  const errors = errorComponents()
  const schemas: Record<string, Schema> = { ...errors.schemas }
  const hoisted = hoistNamed(paths, schemas) as typeof paths
  const document = {
    openapi: '3.1.0',
    info: {
      ...info,
      description:
        'Admin authentication, RBAC and public articles. Success bodies are `{ data }` ' +
        '(paged lists `{ data, meta }`); every error is `{ errors: [{ code, message }] }`. ' +
        'Admin operations carry the permission code they require in `x-permission`.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    // Relative: the paths (all under /api) are served by whatever origin serves this document.
    servers: [{ url: '/', description: 'The server of this document' }],
    paths: Object.fromEntries(Object.entries(hoisted).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas,
      responses: errors.responses,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'The JWT of POST /api/auth/login. On /api/admin routes (those with x-permission), ' +
            'an API token (rbac_..., POST /api/auth/tokens) is accepted too.',
        },
        monitoringSecret: { type: 'apiKey', in: 'header', name: 'x-monitoring-secret' },
      },
    },
  }
  return { document, undocumented }
}

let cached: Promise<string> | undefined

/** The document as JSON text, built once per process (the routes are fixed after boot). */
export function openApiJson() {
  cached ??= (async () => {
    const pkg = JSON.parse(await readFile(app.makePath('package.json'), 'utf8'))
    const { document } = await buildDocument({
      title: 'adonis-rbac-admin API',
      version: pkg.version,
      license: { name: pkg.license, identifier: pkg.license },
    })
    return JSON.stringify(document)
  })()
  return cached
}
