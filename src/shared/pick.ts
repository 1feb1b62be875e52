/**
 * The named fields of a record, in the order given: for API and CLI objects whose fields carry the
 * record's own names, so each field is listed once and its type stays the record's (`Pick<T, K>`).
 * The order of `keys` is the order of the JSON keys, which clients and snapshots may compare.
 */
export function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) picked[key] = source[key];
  return picked;
}
