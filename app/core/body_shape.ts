import { FieldError } from '#exceptions/api_exception'

/**
 * A request body held to the shape its validator declares as JSON Schema (what /api/openapi.json
 * publishes), checked by `request.validateUsing` (start/kernel.ts) before VineJS runs. VineJS
 * alone would drop an unknown key and read `null` as "not given"; the document says neither, so:
 * - a body that is not an object -> 422 (field `input`, rule `object`);
 * - a key the schema does not declare (`additionalProperties: false`) -> 422 naming it;
 * - `null` where the schema does not allow it -> 422. An empty string arrives here as null
 *   (app/middleware/request_input_middleware.ts), so `""` clears only a nullable field.
 * Types and limits stay with VineJS, whose messages name the rule.
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

/** The first departure of `value` from `schema`, as the error to throw, or null. */
export function shapeError(
  schema: JsonSchema,
  value: unknown,
  path = '',
  depth = 0
): FieldError | null {
  if (depth > 32) return null
  const field = path || 'input'
  if (value === null)
    return allowsNull(schema) ? null : new FieldError(field, 'notNullable', 'nullable', { field })
  if (schema.properties) {
    if (!isObject(value)) return path ? null : new FieldError(field, 'bodyNotObject', 'object')
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key
      const declared = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined
      if (!declared) {
        if (schema.additionalProperties === false) {
          return new FieldError(childPath, 'unknownField', 'unknownProperty', { field: childPath })
        }
        continue
      }
      const found = shapeError(declared, child, childPath, depth + 1)
      if (found) return found
    }
  } else if (schema.items && Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = shapeError(schema.items, item, `${path}.${index}`, depth + 1)
      if (found) return found
    }
  }
  return null
}

/** Per validator: its JSON Schema (computed once). */
const schemas = new WeakMap<object, JsonSchema>()

/** The first departure of a request body from the shape `validator` declares, or null. */
export function bodyShapeError(validator: { toJSONSchema(): unknown }, body: unknown) {
  let schema = schemas.get(validator)
  if (!schema) schemas.set(validator, (schema = validator.toJSONSchema() as JsonSchema))
  return shapeError(schema, body)
}
