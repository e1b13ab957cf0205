/**
 * Small JSON Schema (2020-12, as OpenAPI 3.1 uses it) builders for response contracts, and
 * `shape()`, the one declaration of a resource's response fields (see shape below).
 *
 * Objects are closed and every declared key is required: the API always sends every key of a
 * resource (null when empty), so the functional suite, which validates each response against the
 * document, fails when a transformer adds, drops or renames a field its schema does not declare.
 */
declare const TYPE: unique symbol
/** A JSON Schema; `T` is the TypeScript type it describes (type-level only, never in the JSON). */
export type Schema<T = unknown> = { [key: string]: unknown; readonly [TYPE]?: T }
export type Infer<S> = S extends Schema<infer T> ? T : never
type Properties = Record<string, Schema>
type ObjectOf<P extends Properties> = { [K in keyof P]: Infer<P[K]> }
type Extra = Record<string, unknown>

/** Name under components.schemas; kept off the enumerable keys so it never leaks into JSON. */
const NAME = Symbol('openapi.name')
/** Marks a shape field the transformer computes instead of picking it (see computed). */
const COMPUTED = Symbol('shape.computed')

export const s = {
  string: (extra: Extra = {}): Schema<string> => ({ type: 'string', ...extra }),
  integer: (extra: Extra = {}): Schema<number> => ({ type: 'integer', ...extra }),
  number: (extra: Extra = {}): Schema<number> => ({ type: 'number', ...extra }),
  boolean: (): Schema<boolean> => ({ type: 'boolean' }),
  dateTime: (): Schema<string> => ({ type: 'string', format: 'date-time' }),
  literal: <const V extends string>(value: V): Schema<V> => ({ const: value }),
  enum: <const V extends string>(values: readonly V[]): Schema<V> => ({
    type: 'string',
    enum: [...values],
  }),
  array: <T>(items: Schema<T>): Schema<T[]> => ({ type: 'array', items }),
  /** Free-form object (audit diffs, health reports). */
  record: (): Schema<Record<string, unknown>> => ({ type: 'object' }),
  nullable: <T>(schema: Schema<T>): Schema<T | null> => ({ anyOf: [schema, { type: 'null' }] }),
  object: <P extends Properties>(properties: P, optional: string[] = []): Schema<ObjectOf<P>> => ({
    type: 'object',
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    additionalProperties: false,
  }),
  /** A reference to a named schema (for recursive trees). */
  ref: (name: string): Schema => ({ $ref: `#/components/schemas/${name}` }),
}

/** The status of users, roles and menus. */
export const enabledStatus = () => s.enum(['enabled', 'disabled'])

/** Marks a schema as a named component: the document lists it once and refers to it by $ref. */
export function named<S extends Schema>(name: string, schema: S): S {
  Object.defineProperty(schema, NAME, { value: name, enumerable: false })
  return schema
}

export function nameOf(schema: Schema): string | undefined {
  return (schema as any)[NAME]
}

/** A field of a shape that the transformer computes (not a property of the resource). */
export function computed<S extends Schema>(schema: S): S & { readonly [COMPUTED]: true } {
  return Object.defineProperty(schema, COMPUTED, { value: true, enumerable: false }) as any
}

type PickedKeys<P> = {
  [K in keyof P]: P[K] extends { readonly [COMPUTED]: true } ? never : K
}[keyof P] &
  string

/**
 * The response fields of a resource, declared once: `keys` is what its transformer picks from
 * the resource (every field not marked `computed`, in order, typed for `this.pick`), `schema`
 * its OpenAPI response schema, `properties` the fields to build narrower or wider shapes from.
 */
export function shape<P extends Properties>(properties: P) {
  const keys = Object.keys(properties).filter((key) => !(COMPUTED in properties[key]))
  return { properties, keys: keys as PickedKeys<P>[], schema: s.object(properties) }
}

/**
 * The fields of a resource's list that `sort` accepts (`field` ascending, `-field` descending):
 * the one allow-list per resource, next to its shape. The list validator takes `values` (so the
 * OpenAPI document shows them as the sort parameter's enum and anything else is a 422), the
 * service orders by the field's column; `nullable` (read from the shape) puts empty values last
 * on both databases.
 */
export function sortable<P extends Properties, const F extends keyof P & string>(
  resource: { properties: P },
  fields: readonly F[]
) {
  const isNullable = (schema: Schema) =>
    Array.isArray(schema.anyOf) && schema.anyOf.some((item: Schema) => item.type === 'null')
  return {
    fields,
    values: fields.flatMap((field) => [field, `-${field}` as const]),
    nullable: fields.filter((field) => isNullable(resource.properties[field])),
  }
}
export type Sortable = ReturnType<typeof sortable<Properties, string>>

/** `properties` without `keys`, in order: a narrower view of a resource. */
export function omit<P extends Properties, K extends keyof P>(properties: P, ...keys: K[]) {
  return Object.fromEntries(
    Object.entries(properties).filter(([key]) => !keys.includes(key as K))
  ) as Omit<P, K>
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
