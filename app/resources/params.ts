import { PARAM_TYPES, type ParamType } from '#models/param'
import { s, shape, sortable } from '#openapi/schema'

/** A parameter as stored: the value as text, with its type. */
export const param = shape({
  id: s.integer(),
  key: s.string(),
  value: s.string(),
  type: s.enum(PARAM_TYPES),
  isSystem: s.boolean(),
  isPublic: s.boolean(),
  remark: s.nullable(s.string()),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
export const paramSort = sortable(param, ['id', 'key', 'type', 'createdAt', 'updatedAt'])

/** A public parameter: its key, type and value typed (a number, a boolean, any JSON, a string). */
export type PublicParam = { key: string; type: ParamType; value: unknown }
