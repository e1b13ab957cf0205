/**
 * A request body held to the shape its validator declares as JSON Schema (what /api/openapi.json
 * publishes), checked by `request.validateUsing` (start/kernel.ts) before VineJS runs. VineJS
 * alone would drop an unknown key and read `null` as "not given"; the document says neither, so:
 * - a body that is not an object -> 422 (field `input`, rule `object`);
 * - a key the schema does not declare (`additionalProperties: false`) -> 422 naming it;
 * - `null` where the schema does not allow it -> 422. An empty string arrives here as null
 *   (app/middleware/request_input_middleware.ts), so `""` clears only a nullable field.
 * Types and limits stay with VineJS, whose messages name the rule; one 422 lists both.
 */
type JsonSchema = {
  type?: string | string[]
  enum?: unknown[]
  properties?: Record<string, JsonSchema>
  additionalProperties?: boolean
  items?: JsonSchema
}

function allowsNull(schema: JsonSchema) {
  if (schema.enum) return schema.enum.includes(null)
  if (schema.type === undefined) return true
  return Array.isArray(schema.type) ? schema.type.includes('null') : schema.type === 'null'
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** One departure of a body from its schema: where, the catalog key of its message, the rule. */
export type ShapeProblem = { field: string; key: string; rule: string }

/** Every departure of `value` from `schema`, depth first (at most 32 levels). */
export function shapeProblems(
  schema: JsonSchema,
  value: unknown,
  path = '',
  found: ShapeProblem[] = [],
  depth = 0
): ShapeProblem[] {
  if (depth > 32) return found
  const field = path || 'input'
  if (value === null) {
    if (!allowsNull(schema)) found.push({ field, key: 'notNullable', rule: 'nullable' })
  } else if (schema.properties) {
    if (!isObject(value)) {
      if (!path) found.push({ field, key: 'bodyNotObject', rule: 'object' })
      return found
    }
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key
      const declared = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined
      if (declared) shapeProblems(declared, child, childPath, found, depth + 1)
      else if (schema.additionalProperties === false) {
        found.push({ field: childPath, key: 'unknownField', rule: 'unknownProperty' })
      }
    }
  } else if (schema.items && Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      shapeProblems(schema.items, item, `${path}.${index}`, found, depth + 1)
    }
  }
  return found
}

/** Per validator: its JSON Schema (computed once). */
const schemas = new WeakMap<object, JsonSchema>()

/** Every departure of a request body from the shape `validator` declares (none: []). */
export function bodyShapeProblems(validator: { toJSONSchema(): unknown }, body: unknown) {
  let schema = schemas.get(validator)
  if (!schema) schemas.set(validator, (schema = validator.toJSONSchema() as JsonSchema))
  return shapeProblems(schema, body)
}
