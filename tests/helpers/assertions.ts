import type { Assert } from '@japa/assert'
import type { ApiResponse } from '@japa/api-client'

/** A 403 in the error contract (E_FORBIDDEN, README "HTTP API"), optionally with a message fragment. */
export function assertForbidden(assert: Assert, response: ApiResponse, fragment?: string) {
  assert.equal(response.status(), 403, JSON.stringify(response.body()))
  assert.lengthOf(response.body().errors, 1)
  assert.equal(response.body().errors[0].code, 'E_FORBIDDEN')
  if (fragment) assert.include(response.body().errors[0].message, fragment)
}

/**
 * A 422 in the error contract with one E_VALIDATION_ERROR entry per field; `fields` are the fields
 * that must be named (every entry names a field).
 */
export function assertValidationError(assert: Assert, response: ApiResponse, fields: string[]) {
  assert.equal(response.status(), 422, JSON.stringify(response.body()))
  const errors: { code: string; field?: string }[] = response.body().errors
  for (const error of errors) assert.equal(error.code, 'E_VALIDATION_ERROR')
  assert.includeMembers(
    errors.map((error) => error.field),
    fields
  )
}
