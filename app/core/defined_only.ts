/**
 * The given fields without those left out (undefined), for a partial update: a service updates a
 * record with `record.merge(definedOnly(data))`, `data` being what its validator let through
 * (VineJS drops every other key). null is kept: it clears a nullable column.
 */
export function definedOnly<Data extends object>(data: Data) {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)) as {
    [K in keyof Data]?: Exclude<Data[K], undefined>
  }
}
