import { AppError } from '../shared/errors.js';

/**
 * `merge_data` semantics (spec: POST /pdf `merge_data`, for no-code forms):
 *
 * 1. Empty values are dropped: null, "", {} and []. Dropping is recursive: an object whose members
 *    are all empty becomes empty itself and is dropped too, so an untouched form section never
 *    blanks out `data`. Arrays are values, not sections: a non-empty array is kept exactly as sent
 *    (its elements are not pruned) and replaces the array in `data`.
 * 2. The rest is deep-merged over `data`: where both sides hold an object, they merge key by key;
 *    anything else (arrays, scalars, an object over a scalar) replaces the value in `data`.
 * 3. Keys are used literally: `"a.b"` is one key, never the path a → b.
 *
 * Neither input is mutated; objects are shared with the inputs only where nothing was merged into
 * them. Keys such as `__proto__` or `constructor` become ordinary own properties (defined, never
 * assigned), so no prototype can be reached or polluted.
 */

type Json = Record<string, unknown>;

/** Far beyond any form; keeps a hostile body from overflowing the stack (a 400, not a 500). */
const MAX_DEPTH = 1000;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

/** Defines an own, enumerable data property: the `__proto__` setter is never invoked. */
function defineOwn(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function tooDeep(): AppError {
  return new AppError('invalid_request', `"merge_data" is nested more than ${MAX_DEPTH} levels deep.`);
}

/** merge_data without its empty values (recursively, per rule 1); undefined when nothing is left. */
export function pruneEmpty(merge: Json, depth = 0): Json | undefined {
  if (depth > MAX_DEPTH) throw tooDeep();
  const out: Json = {};
  let kept = 0;
  for (const [key, value] of Object.entries(merge)) {
    const pruned = isObject(value) ? pruneEmpty(value, depth + 1) : value;
    if (isEmpty(pruned)) continue;
    defineOwn(out, key, pruned);
    kept += 1;
  }
  return kept > 0 ? out : undefined;
}

function ownValue(source: Json, key: string): unknown {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}

function deepMerge(base: Json, over: Json, depth: number): Json {
  if (depth > MAX_DEPTH) throw tooDeep();
  const out: Json = {};
  for (const [key, value] of Object.entries(base)) defineOwn(out, key, value);
  for (const [key, value] of Object.entries(over)) {
    const current = ownValue(base, key);
    const merged = isObject(current) && isObject(value) ? deepMerge(current, value, depth + 1) : value;
    defineOwn(out, key, merged);
  }
  return out;
}

/** `data` with the non-empty values of `merge` deep-merged over it (see the rules above). */
export function mergeData(data: Json, merge: Json): Json {
  const pruned = pruneEmpty(merge);
  if (pruned === undefined) return deepMerge(data, {}, 0);
  return deepMerge(data, pruned, 0);
}
