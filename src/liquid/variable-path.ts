import {
  type Context,
  evalTokenValue,
  type PropertyAccessToken,
  type Token,
  TypeGuards,
  toValueSync,
} from 'liquidjs';
import { appendKey } from './data-paths.js';

/** Looks up the data path of an object the template reached (a loop alias, an assigned variable). */
export type DataPathLookup = (value: object) => string | undefined;

/** The key a segment reads: a literal from the template, or a dynamic `[expr]` evaluated leniently. */
function segmentKey(prop: Token, ctx: Context): unknown {
  if (TypeGuards.isWordToken(prop) || TypeGuards.isQuotedToken(prop) || TypeGuards.isNumberToken(prop)) {
    return prop.content;
  }
  return toValueSync(evalTokenValue(prop as Parameters<typeof evalTokenValue>[0], ctx, true));
}

function isIndexKey(key: unknown): boolean {
  return typeof key === 'number' || key === 'first' || key === 'last' || /^\d+$/.test(String(key));
}

/** How a segment is written in a path: template text only (`.name`, `[]`, `[expr]`). */
function segmentLabel(path: string, prop: Token, parent: unknown, key: unknown): string {
  if (Array.isArray(parent) && isIndexKey(key)) return `${path}[]`;
  if (TypeGuards.isWordToken(prop) || TypeGuards.isQuotedToken(prop)) return appendKey(path, prop.content);
  if (TypeGuards.isNumberToken(prop)) return `${path}[]`;
  return `${path}[${prop.getText()}]`;
}

function mappedPath(value: unknown, lookup: DataPathLookup): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const path = lookup(value);
  return path === '' ? undefined : path;
}

/**
 * The normalised path of a variable access that came out undefined, e.g. `item.discount` inside
 * `{% for item in items %}` → `items[].discount`. Segments after the missing one are appended as
 * written. Returns undefined when nothing in the chain is undefined (a null stops the chain: spec
 * "sent as null are not reported") or when the access starts from a literal rather than data.
 * Reads with `ctx` non-strict: the caller switches strictVariables off first.
 */
export function missingVariablePath(
  token: PropertyAccessToken,
  ctx: Context,
  lookup: DataPathLookup,
): string | undefined {
  if (token.variable !== undefined) return undefined;
  let path = '';
  let value: unknown;
  let missing = false;
  token.props.forEach((prop, i) => {
    if (missing) {
      path = segmentLabel(path, prop, undefined, undefined);
      return;
    }
    const key = segmentKey(prop, ctx);
    const parent = value;
    value = i === 0 ? ctx.getSync([key as string]) : ctx.readProperty(parent as object, key as string);
    path = mappedPath(value, lookup) ?? segmentLabel(path, prop, parent, key);
    missing = value === undefined;
  });
  return missing ? path : undefined;
}
