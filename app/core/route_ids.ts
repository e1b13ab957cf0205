import { MAX_ID } from '#validators/admin/common'

/**
 * A regular expression accepting exactly the decimal integers 1..max (no sign, no leading zero).
 * The router only tests a segment against a pattern (a matcher's `cast` runs after the match),
 * so the bound has to be in the pattern itself.
 */
export function positiveUpTo(max: number): RegExp {
  const digits = String(max)
  const alternatives = digits.length > 1 ? [`[1-9]\\d{0,${digits.length - 2}}`] : []
  // Same length as max: its first i digits, then a smaller digit, then any digits.
  for (let i = 0; i < digits.length; i++) {
    const low = i === 0 ? 1 : 0
    const high = Number(digits[i]) - 1
    if (high >= low) {
      alternatives.push(`${digits.slice(0, i)}[${low}-${high}]\\d{${digits.length - i - 1}}`)
    }
  }
  alternatives.push(digits)
  return new RegExp(`^(?:${alternatives.join('|')})$`)
}

/**
 * THE matcher of every numeric route parameter: a positive int4 (1..2147483647, the range of the
 * serial ids), cast to a number. Registered globally for the names in NUMERIC_PARAMS
 * (start/routes.ts), so a larger id never reaches a handler: the router answers 404, and
 * PostgreSQL is never asked to compare an int4 column with an out-of-range value (a 500).
 * tests/functional/route_ids.spec.ts walks the router for every route using it.
 */
export const ID_PARAM = {
  match: positiveUpTo(MAX_ID),
  cast: (value: string) => Number(value),
}

/** The route parameter names that are ids (a route with another kind of `:id` overrides it). */
export const NUMERIC_PARAMS = ['id', 'userId'] as const
