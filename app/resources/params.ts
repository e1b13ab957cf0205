import { PARAM_TYPES, type ParamType } from '#models/param'
import vine from '@vinejs/vine'
import { s, shape, sortable } from '#openapi/schema'
import { nullableLines } from '#validators/admin/common'
import { line, lines } from '#validators/text'
import { writable } from '#validators/writable'

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

/*
| What a request writes (app/validators/writable.ts: the validators of
| app/validators/admin/param.ts and a new parameter's defaults derive from it). `value` is text
| here; whether it fits `type` is the param service's check (it needs the stored type on an
| update), a 422 on `value`. `isSystem` is the seeder's, never the API's.
*/
export const PARAM_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/

export const paramWrites = writable({
  key: { rule: () => line(100).regex(PARAM_KEY) },
  /** May span lines (a JSON value, a text block); other control characters are refused. */
  value: { rule: () => lines(10_000, { trim: false }) },
  type: { rule: () => vine.enum(PARAM_TYPES) },
  isPublic: { rule: () => vine.boolean().optional(), default: false },
  remark: { rule: () => nullableLines(255), default: null },
})
