import { hash } from 'node:crypto'

/** A statement as sent: its SQL text and its bindings (knex's `toSQL()` shape). */
export type Statement = { sql: string; bindings: unknown[] }

/**
 * Bound in place of the request time when a statement is built for its cache key: the time
 * differs on every request and is not a filter (the cached answer is tagged with its version and
 * expiry instead). Nothing else is left out.
 */
export const CLOCK = null

/**
 * The cache key of an answer: the statement that reads it, text and bindings, so the key holds
 * whatever the query really uses (a filter added to the query is in the key). Hashed: the texts
 * are long, and the key's length counts in an entry's bytes.
 */
export function statementKey(statement: Statement): string {
  return hash('sha256', JSON.stringify([statement.sql, statement.bindings]), 'base64url')
}
