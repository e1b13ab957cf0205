import type { SchemaTypes } from '@vinejs/vine/types'

/**
 * A field a request may write, declared once beside its resource's response shape
 * (app/resources/<name>.ts): what the create and update bodies and the import's rows take, and
 * what a new record stores when it is left out are all derived from it (writable, below).
 */
export type WritableField = {
  /**
   * The field's VineJS rule with its limits, as a create takes it: `.optional()` where it may be
   * left out (an update may always leave it out).
   */
  rule: () => SchemaTypes
  /** `false`: only a create sets it (set once, or written through its own endpoint). */
  update?: false
  /** What a new record stores when the field is left out: a value, or one computed from the input. */
  default?: unknown
  /**
   * A column of the import: its header (the field's name unless told), a one-cell example for
   * the template, and, for a value that is no plain text, the rule the row is held to and how a
   * cell becomes its input. An empty cell is a field left out.
   */
  import?: {
    column?: string
    example?: string
    rule?: () => SchemaTypes
    cell?: (text: string) => unknown
  }
}

type Fields = Record<string, WritableField>
type RuleOf<F extends WritableField> = ReturnType<F['rule']>
/** A rule as an update takes it: optional (an update leaves out what it does not change). */
type Optional<R> = R extends { optional(): infer O } ? O : R
type Updated<F extends Fields> = {
  [K in keyof F as F[K] extends { update: false } ? never : K]: Optional<RuleOf<F[K]>>
}
type Imported<F extends Fields> = {
  [
    K in keyof F as F[K] extends { import: { column: infer C extends string } }
      ? C
      : F[K] extends { import: object }
        ? K
        : never
  ]: F[K] extends { import: { rule: () => infer R } } ? R : RuleOf<F[K]>
}

/** The keys of the fields that have a default, and an input with them set. */
type DefaultKeys<F extends Fields> = {
  [K in keyof F]: F[K] extends { default: unknown } ? K : never
}[keyof F]
type DefaultOf<D> = D extends (...args: any[]) => infer R ? R : D
type Defaulted<F extends Fields, I> = Omit<I, DefaultKeys<F>> & {
  [K in DefaultKeys<F> & keyof I]-?: Exclude<I[K], undefined> | DefaultOf<F[K]['default']>
}

/** The rule, optional: VineJS's `optional()` where the rule is not optional yet. */
function optional(rule: SchemaTypes) {
  const schema = rule as SchemaTypes & { optional?: () => SchemaTypes }
  return typeof schema.optional === 'function' ? schema.optional() : rule
}

/**
 * A resource's writable fields, in the order its bodies and import columns list them. Gives
 * the properties of its create, update and import-row validators (`vine.create(...)`: the
 * OpenAPI document and the body check read those), the import's columns and the input a row's
 * cells make, and `withDefaults`, the one place a new record's defaults are applied.
 */
export function writable<const F extends Fields>(fields: F) {
  const names = Object.keys(fields)
  const rules = (keys: string[], pick = (field: WritableField) => field.rule) =>
    Object.fromEntries(keys.map((key) => [key, pick(fields[key])()]))
  const imported = names.filter((name) => fields[name].import)
  const columnOf = (name: string) => fields[name].import?.column ?? name
  return {
    /** The create body's properties: every field. */
    create: () => rules(names) as { [K in keyof F]: RuleOf<F[K]> },
    /** The update body's properties: every field a create does not set once, optional. */
    update: () =>
      rules(
        names.filter((name) => fields[name].update !== false),
        (field) => () => optional(field.rule())
      ) as Updated<F>,
    /** One import row's properties, by column. */
    importRow: () =>
      Object.fromEntries(
        imported.map((name) => {
          const rule = fields[name].import!.rule ?? fields[name].rule
          return [columnOf(name), rule()]
        })
      ) as Imported<F>,
    /** The import's header names, in order. */
    columns: imported.map(columnOf),
    /** The template's example row. */
    example: imported.map((name) => fields[name].import!.example ?? ''),
    /** A row's input for the row validator, from its cells by column (missing: left out). */
    cells(byColumn: Record<string, string | undefined>) {
      return Object.fromEntries(
        imported.map((name) => {
          const { cell } = fields[name].import!
          const text = byColumn[columnOf(name)] ?? ''
          return [columnOf(name), cell ? cell(text) : text || undefined]
        })
      )
    },
    /** A new record's input with every field left out set to its default (if it has one). */
    withDefaults<I extends Record<string, unknown>>(input: I) {
      const output: Record<string, unknown> = { ...input }
      for (const name of names) {
        const fallback = fields[name].default
        if (output[name] !== undefined || !('default' in fields[name])) continue
        output[name] = typeof fallback === 'function' ? fallback(input) : fallback
      }
      return output as Defaulted<F, I>
    },
  }
}
