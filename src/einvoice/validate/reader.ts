import type { Decimal } from 'decimal.js';
import { Dec } from '../totals/money.js';
import type { Issues } from './issues.js';

/** SPEC "E-invoices": text fields are at most 1,000 characters unless noted. */
export const DEFAULT_MAX_TEXT = 1000;

/** XML 1.0 cannot carry controls other than tab/CR/LF, lone surrogates, U+FFFE and U+FFFF. */
function hasNonXmlChar(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
    if (c === 0xfffe || c === 0xffff) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields of one JSON object at `path`. Every field read is remembered so `finish()` can report
 * the ones no rule knows: an unknown field inside `e_invoice` is an issue, never silently dropped.
 */
export class Fields {
  private readonly seen = new Set<string>();

  constructor(
    readonly raw: Record<string, unknown>,
    readonly path: string,
    readonly issues: Issues,
  ) {}

  /** The object at `path`, or undefined (with an issue) when `value` is not an object. */
  static of(value: unknown, path: string, issues: Issues): Fields | undefined {
    if (isPlainObject(value)) return new Fields(value, path, issues);
    issues.add(path, 'must be an object');
    return undefined;
  }

  /** The raw value; JSON null counts as absent. */
  get(key: string): unknown {
    this.seen.add(key);
    const value = this.raw[key];
    return value === null ? undefined : value;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  at(key: string): string {
    return `${this.path}.${key}`;
  }

  issue(key: string, message: string): void {
    this.issues.add(this.at(key), message);
  }

  finish(): void {
    for (const key of Object.keys(this.raw)) {
      if (!this.seen.has(key)) this.issues.add(this.at(key), 'is not a known field');
    }
  }
}

export interface TextOptions {
  required?: boolean;
  max?: number;
}

/** A trimmed string; empty counts as absent (SPEC: text fields are trimmed). */
export function text(f: Fields, key: string, opts: TextOptions = {}): string | undefined {
  const value = f.get(key);
  if (value === undefined) return missing(f, key, opts.required);
  if (typeof value !== 'string') {
    f.issue(key, 'must be a string');
    return undefined;
  }
  const trimmed = value.trim();
  if (trimmed === '') return missing(f, key, opts.required);
  const max = opts.max ?? DEFAULT_MAX_TEXT;
  if ([...trimmed].length > max) f.issue(key, `must be at most ${max} characters`);
  else if (hasNonXmlChar(trimmed)) f.issue(key, 'contains control characters that XML cannot carry');
  else return trimmed;
  return undefined;
}

/** A required text; '' when missing (the issue is recorded, so the value never escapes). */
export function requiredText(f: Fields, key: string, max?: number): string {
  return text(f, key, max === undefined ? { required: true } : { required: true, max }) ?? '';
}

function missing(f: Fields, key: string, required: boolean | undefined): undefined {
  if (required) f.issue(key, 'is required');
  return undefined;
}

/** A code from a closed list (exact spelling). */
export function code(
  f: Fields,
  key: string,
  list: ReadonlySet<string>,
  label: string,
  required = false,
): string | undefined {
  const value = text(f, key, { required, max: 100 });
  if (value === undefined || list.has(value)) return value;
  f.issue(key, `"${value}" is not a valid ${label} code`);
  return undefined;
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
/** Larger magnitudes are certainly typing mistakes; they would also overflow some receivers. */
const MAX_MAGNITUDE = new Dec('1e15');

export interface DecimalOptions {
  required?: boolean;
  /** Most decimal places allowed. */
  maxDp: number;
  /** `nonNegative`: ≥ 0, `positive`: > 0. */
  sign?: 'nonNegative' | 'positive';
}

/** A JSON number or decimal string, exactly (SPEC: amounts are numbers or decimal strings). */
export function decimal(f: Fields, key: string, opts: DecimalOptions): Decimal | undefined {
  const value = f.get(key);
  if (value === undefined) return missing(f, key, opts.required);
  const parsed = parseDecimal(value);
  if (parsed === undefined) f.issue(key, 'must be a number or a decimal string');
  else if (parsed.abs().gte(MAX_MAGNITUDE)) f.issue(key, 'is too large');
  else if (parsed.decimalPlaces() > opts.maxDp) f.issue(key, `must have at most ${opts.maxDp} decimals`);
  else if (opts.sign === 'nonNegative' && parsed.isNegative() && !parsed.isZero())
    f.issue(key, 'must not be negative');
  else if (opts.sign === 'positive' && !parsed.gt(0)) f.issue(key, 'must be greater than 0');
  else return parsed.plus(0);
  return undefined;
}

export function parseDecimal(value: unknown): Decimal | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? new Dec(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return DECIMAL.test(trimmed) ? new Dec(trimmed) : undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written `YYYY-MM-DD`. */
export function date(f: Fields, key: string, required = false): string | undefined {
  const value = f.get(key);
  if (value === undefined) return missing(f, key, required);
  if (typeof value === 'string' && isRealDate(value.trim())) return value.trim();
  f.issue(key, 'must be a date written YYYY-MM-DD');
  return undefined;
}

export function isRealDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** A nested object field. */
export function object(f: Fields, key: string, required = false): Fields | undefined {
  const value = f.get(key);
  if (value === undefined) return missing(f, key, required);
  return Fields.of(value, f.at(key), f.issues);
}

/** An optional nested object read by `read`, its unknown fields reported after; undefined when it is absent. */
export function optionalObject<T>(f: Fields, key: string, read: (sub: Fields) => T): T | undefined {
  const sub = object(f, key);
  if (!sub) return undefined;
  const result = read(sub);
  sub.finish();
  return result;
}

export interface ArrayItem {
  value: unknown;
  path: string;
}

/** An array field with length limits; each item keeps its path (`…lines[2]`). */
export function array(f: Fields, key: string, opts: { required?: boolean; min?: number; max?: number } = {}) {
  const value = f.get(key);
  if (value === undefined) {
    missing(f, key, opts.required);
    return [];
  }
  if (!Array.isArray(value)) {
    f.issue(key, 'must be an array');
    return [];
  }
  if (opts.min !== undefined && value.length < opts.min)
    f.issue(key, `must have at least ${opts.min} entries`);
  if (opts.max !== undefined && value.length > opts.max) {
    f.issue(key, `must have at most ${opts.max} entries`);
    return [];
  }
  return value.map((v, i): ArrayItem => ({ value: v, path: `${f.at(key)}[${i}]` }));
}
