import { named, s } from '#openapi/schema'

/**
 * The answer of POST /api/admin/users/import (built by app/services/admin/user_import.ts from
 * picked fields only): the rows read, every row's problems, and the accounts created with their
 * generated passwords (shown once: only this answer has them).
 */
export const importResultSchema = named(
  'UserImportResult',
  s.object({
    dryRun: s.boolean(),
    rows: s.integer({ minimum: 0 }),
    errors: s.array(
      s.object({ row: s.integer(), field: s.string(), code: s.string(), message: s.string() })
    ),
    created: s.array(
      s.object({ id: s.integer(), account: s.string(), initialPassword: s.string() })
    ),
  })
)
