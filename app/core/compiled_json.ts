import { safeStringify } from '@poppinss/utils/json'
import { type Schema, nameOf } from '#openapi/schema'

/**
 * JSON text of a response body, by a function compiled once from the body's declared schema (the
 * controller's contract, app/openapi/contract.ts) instead of the framework's safe stringify, whose
 * replacer runs per key (~0.04 ms for a page of 10). Byte-identical to it by construction: object
 * keys are written in the object's own order (a key the schema does not declare, and any value
 * not of its declared type, by JSON.stringify), so the schema only picks the cheap path; a cycle
 * or a BigInt (which JSON.stringify refuses) falls back to the safe stringify for the whole body.
 * tests/unit/compiled_json.spec.ts compares the bytes for every declared response.
 */
export type Stringify = (value: unknown) => string

type Encode = (value: unknown) => string | undefined

const generic: Encode = (value) => JSON.stringify(value)

const integer: Encode = (value) =>
  typeof value === 'number' ? (Number.isFinite(value) ? '' + value : 'null') : generic(value)
const string: Encode = (value) =>
  typeof value === 'string' ? JSON.stringify(value) : generic(value)
/**
 * A luxon DateTime: its toJSON() (ISO 8601, nothing to escape) quoted, as JSON.stringify would
 * write it, without JSON.stringify's generic path (~2x the cost; 500 dates on a users page of 100).
 */
const dateTime: Encode = (value) => {
  if (value === null || typeof value !== 'object' || !(value as any).isLuxonDateTime) {
    return string(value)
  }
  const text = (value as { toJSON(): unknown }).toJSON()
  return typeof text === 'string' ? '"' + text + '"' : generic(text)
}
const boolean: Encode = (value) =>
  value === true ? 'true' : value === false ? 'false' : generic(value)

/** A plain object or array JSON.stringify would write as is (no toJSON of its own). */
const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value)
  return (proto === Object.prototype || proto === null) && !('toJSON' in value)
}

class Compiler {
  /** By named schema: the encoder being (or already) compiled, for `$ref`s and recursion. */
  #named = new Map<string, Encode>()

  encoder(schema: Schema | undefined): Encode {
    if (!schema || typeof schema !== 'object') return generic
    const name = nameOf(schema)
    if (name) {
      const known = this.#named.get(name)
      if (known) return known
      let compiled: Encode = generic
      const late: Encode = (value) => compiled(value)
      this.#named.set(name, late)
      compiled = this.#encoder(schema)
      this.#named.set(name, compiled)
      return compiled
    }
    return this.#encoder(schema)
  }

  #encoder(schema: Schema): Encode {
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').at(-1)!
      const known = this.#named.get(name)
      return known ? (value) => this.#named.get(name)!(value) : generic
    }
    if (Array.isArray(schema.anyOf)) {
      const others = (schema.anyOf as Schema[]).filter((option) => option.type !== 'null')
      if (others.length !== 1) return generic
      const inner = this.encoder(others[0])
      return (value) => (value === null ? 'null' : inner(value))
    }
    switch (schema.type) {
      case 'integer':
      case 'number':
        return integer
      case 'string':
        return schema.format === 'date-time' ? dateTime : string
      case 'boolean':
        return boolean
      case 'array':
        return this.#array(this.encoder(schema.items as Schema))
      case 'object':
        return schema.properties
          ? this.#object(schema.properties as Record<string, Schema>)
          : generic
      default:
        return generic
    }
  }

  #array(item: Encode): Encode {
    return (value) => {
      if (!Array.isArray(value) || !isPlainArray(value)) return generic(value)
      if (value.length === 0) return '[]'
      let out = '[' + (item(value[0]) ?? 'null')
      for (let i = 1; i < value.length; i++) out += ',' + (item(value[i]) ?? 'null')
      return out + ']'
    }
  }

  /** A function with one `case` per declared key (its `"key":` prefix written in the source). */
  #object(properties: Record<string, Schema>): Encode {
    const keys = Object.keys(properties)
    const encoders = keys.map((key) => this.encoder(properties[key]))
    const cases = keys
      .map(
        (key, i) =>
          `case ${JSON.stringify(key)}: text = e[${i}](v); head = ${JSON.stringify(JSON.stringify(key) + ':')}; break`
      )
      .join('\n')

    const compiled = new Function(
      'e',
      'generic',
      'isPlain',
      `return function encode(o) {
        if (o === null || typeof o !== 'object' || Array.isArray(o) || !isPlain(o)) return generic(o)
        let out = '{', text, head
        for (const k in o) {
          const v = o[k]
          switch (k) {
            ${cases}
            default: text = generic(v); head = JSON.stringify(k) + ':'
          }
          if (text === undefined) continue
          out += out.length === 1 ? head + text : ',' + head + text
        }
        return out + '}'
      }`
    )
    return compiled(encoders, generic, isPlain)
  }
}

const isPlainArray = (value: unknown[]) => Object.getPrototypeOf(value) === Array.prototype

/** The stringifier of bodies of `schema`. */
export function compileStringify(schema: Schema): Stringify {
  const encode = new Compiler().encoder(schema)
  return (value) => {
    try {
      return (encode(value) ?? safeStringify(value)) as string
    } catch {
      return safeStringify(value) as string
    }
  }
}

/** Where a body carries its compiled stringifier (a symbol: never serialized). */
export const STRINGIFY = Symbol('body.stringify')

/** The response's JSON text (config/app.ts `serializeJSON`): compiled when the body says how. */
export function serializeJSON(value: any): string {
  const stringify: Stringify | undefined = value?.[STRINGIFY]
  return stringify ? stringify(value) : (safeStringify(value) as string)
}
