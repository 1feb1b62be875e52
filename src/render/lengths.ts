/**
 * CSS lengths as the spec allows them ("Page option values"): a bare `0`, or a non-negative decimal
 * immediately followed by exactly one of mm, cm, in, px, pt. Nothing else (no signs, exponents,
 * upper-case units, spaces or `calc()`).
 */
const LENGTH = /^(?:0|(?:\d+(?:\.\d+)?|\.\d+)(mm|cm|in|px|pt))$/;

/** Inches per unit; CSS fixes px at 1/96 in and pt at 1/72 in. */
const INCHES_PER_UNIT = { mm: 1 / 25.4, cm: 1 / 2.54, in: 1, px: 1 / 96, pt: 1 / 72 } as const;

export type LengthUnit = keyof typeof INCHES_PER_UNIT;

export function isLength(value: unknown): value is string {
  return typeof value === 'string' && LENGTH.test(value);
}

/** A valid length in inches, or null when the text is not a length of the spec's grammar. */
export function lengthToInches(value: string): number | null {
  const match = LENGTH.exec(value);
  if (!match) return null;
  const unit = match[1] as LengthUnit | undefined;
  if (unit === undefined) return 0;
  return Number.parseFloat(value.slice(0, -unit.length)) * INCHES_PER_UNIT[unit];
}

export interface BoxLengths {
  top: string;
  right: string;
  bottom: string;
  left: string;
}

/**
 * Splits a margins value (one to four lengths separated by single spaces) the way CSS `margin`
 * expands its shorthand. Returns null when the text breaks the grammar.
 */
export function expandMargins(value: string): BoxLengths | null {
  const parts = value.split(' ');
  if (parts.length < 1 || parts.length > 4 || !parts.every(isLength)) return null;
  const [a, b = a, c = a, d = b] = parts as [string, ...string[]];
  return { top: a, right: b, bottom: c, left: d };
}
