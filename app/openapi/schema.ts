/**
 * Small JSON Schema (2020-12, as OpenAPI 3.1 uses it) builders for response contracts.
 *
 * Objects are closed and every declared key is required: the API always sends every key of a
 * resource (null when empty), so the functional suite, which validates each response against the
 * document, fails when a transformer adds, drops or renames a field its schema does not declare.
 */
export type Schema = { [key: string]: unknown }

/** Name under components.schemas; kept off the enumerable keys so it never leaks into JSON. */
const NAME = Symbol('openapi.name')

export const s = {
  string: (extra: Schema = {}): Schema => ({ type: 'string', ...extra }),
  integer: (extra: Schema = {}): Schema => ({ type: 'integer', ...extra }),
  number: (extra: Schema = {}): Schema => ({ type: 'number', ...extra }),
  boolean: (): Schema => ({ type: 'boolean' }),
  dateTime: (): Schema => ({ type: 'string', format: 'date-time' }),
  literal: (value: string): Schema => ({ const: value }),
  enum: (values: readonly string[]): Schema => ({ type: 'string', enum: [...values] }),
  array: (items: Schema): Schema => ({ type: 'array', items }),
  /** Free-form object (audit diffs, health reports). */
  record: (): Schema => ({ type: 'object' }),
  nullable: (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] }),
  object: (properties: Record<string, Schema>, optional: string[] = []): Schema => ({
    type: 'object',
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    additionalProperties: false,
  }),
  /** A reference to a named schema (for recursive trees). */
  ref: (name: string): Schema => ({ $ref: `#/components/schemas/${name}` }),
}

/** Marks a schema as a named component: the document lists it once and refers to it by $ref. */
export function named(name: string, schema: Schema): Schema {
  Object.defineProperty(schema, NAME, { value: name, enumerable: false })
  return schema
}

export function nameOf(schema: Schema): string | undefined {
  return (schema as any)[NAME]
}

/** The `meta` block of paged lists (pageMeta() in providers/api_provider.ts). */
export const pageMetaSchema = named(
  'PageMeta',
  s.object({
    total: s.integer({ minimum: 0 }),
    pageNum: s.integer({ minimum: 1 }),
    pageSize: s.integer({ minimum: 1 }),
    lastPage: s.integer({ minimum: 1 }),
  })
)
