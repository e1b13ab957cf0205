/**
 * The columns of a resource's CSV export, declared beside its shape (app/resources/<name>.ts):
 * the shape's fields in order, less those left out, with `format` for a field whose value is no
 * scalar. The values come from the resource's transformer (what the list shows), so
 * a column can only be a field the API already shows: never a digest, a secret or a token.
 */
export function csvColumns<P extends Record<string, unknown>, O extends keyof P & string = never>(
  resource: { properties: P },
  options: {
    omit?: O[]
    format?: { [K in Exclude<keyof P & string, O>]?: (value: any) => unknown }
  } = {}
) {
  const omitted: string[] = options.omit ?? []
  const names = Object.keys(resource.properties).filter((name) => !omitted.includes(name))
  const format: Record<string, ((value: any) => unknown) | undefined> = options.format ?? {}
  return {
    names,
    /** The cells of one row, from the transformer's object. */
    cells: (object: Record<string, unknown>) =>
      names.map((name) => (format[name] ? format[name](object[name]) : object[name])),
  }
}

export type CsvColumns = ReturnType<typeof csvColumns>
