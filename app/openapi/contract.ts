import type { Schema } from '#openapi/schema'

/** A VineJS validator (Vine 4 converts its schema to JSON Schema). */
type Validator = { toJSONSchema(): unknown }

/**
 * What a controller action declares about itself for the OpenAPI document, next to the code
 * that does it: the validators it runs (the same objects) and the schema of its success body.
 * Path, method, auth and permission code come from the router (app/openapi/document.ts).
 */
export type Operation = {
  summary: string
  description?: string
  query?: Validator
  body?: Validator
  /** A multipart/form-data body carrying one file in the part `field` (instead of `body`). */
  upload?: { field: string }
  /** Validator of the path parameters, when one checks them beyond the route matcher. */
  params?: Validator
  /** Success status; default 200 (204 has no body). */
  status?: 200 | 201 | 202 | 204
  /** Success body `{ data: <schema> }`. */
  data?: Schema
  /** Success body `{ data: <schema>[] }`. */
  list?: Schema
  /** Success body `{ data: <schema>[], meta: PageMeta }`. */
  page?: Schema
  /** Success body as is (no envelope): health, the document itself; `content` for several types. */
  raw?: { schema: Schema; contentType?: string } | { content: Record<string, Schema> }
  /** Error statuses this action answers beyond those the route implies (auth, ids, input). */
  errors?: number[]
  /** Answers 304 to a matching If-None-Match / If-Modified-Since. */
  conditional?: boolean
  /** Security requirements beyond the router's (Bearer JWT from `auth`/`can`; else public: `[]`). */
  security?: Record<string, string[]>[]
}

/** Declares a controller's operations, keyed by action name (`static contract = contract({...})`). */
export function contract<const T extends Record<string, Operation>>(operations: T): T {
  return operations
}
