import app from '@adonisjs/core/services/app'
import { safeStringify } from '@poppinss/utils/json'
import { STRINGIFY, serializeJSON } from '#core/compiled_json'

/**
 * While the functional suite runs, every JSON answer written by a stringifier compiled from its
 * route's contract (app/core/compiled_json.ts) is also written by the serializer it replaced
 * (the framework's safe stringify): different bytes fail the test that made the request
 * (compiledJsonTeardown, an ApiClient teardown hook). `compared` counts the bodies per route.
 */
export const compiledBodies = { compared: new Map<string, number>() }
const mismatches: string[] = []

function checkedSerializeJSON(value: any): string {
  const text = serializeJSON(value)
  const stringify = value?.[STRINGIFY]
  if (stringify) {
    const before = safeStringify(value) as string
    const key = (stringify as { route?: string }).route ?? '?'
    compiledBodies.compared.set(key, (compiledBodies.compared.get(key) ?? 0) + 1)
    if (before !== text) mismatches.push(`compiled:\n${text}\nbefore:\n${before}`)
  }
  return text
}

export function checkCompiledJson(enabled: boolean) {
  app.config.get<Record<string, unknown>>('app.http').serializeJSON = enabled
    ? checkedSerializeJSON
    : serializeJSON
}

export function compiledJsonTeardown() {
  if (mismatches.length === 0) return
  const found = mismatches.splice(0)
  throw new Error(`A compiled JSON body differs from the safe stringify's:\n${found[0]}`)
}
