import { Decimal } from 'decimal.js';
import { FilterInputError } from '../template-error.js';

/** Spec "Amounts, quantities, prices and rates are JSON numbers or decimal strings". */
const DECIMAL_STRING = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export function isNil(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

/**
 * A number or an exact decimal string, ready for Intl.NumberFormat (which formats decimal strings
 * exactly, so "1.005" rounds to 1.01 rather than through a binary float).
 */
export function numericInput(filter: string, value: unknown): number | string {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw new FilterInputError(filter, 'needs a finite number');
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (DECIMAL_STRING.test(trimmed)) return trimmed;
  }
  throw new FilterInputError(filter, 'needs a number or a decimal string such as "1234.50"');
}

/** value ÷ 100 without binary rounding (percent takes percentage points, e.g. 19 for 19 %). */
export function hundredth(value: number | string): string {
  return new Decimal(value).div(100).toFixed();
}

/** An optional locale argument: nil means the engine default; anything else must be a BCP 47 tag. */
export function localeInput(filter: string, value: unknown, fallback: string): string {
  if (isNil(value) || value === '') return fallback;
  if (typeof value === 'string') {
    try {
      const [canonical] = Intl.getCanonicalLocales(value);
      if (canonical !== undefined) return canonical;
    } catch {
      // Reported below as the filter's own error.
    }
  }
  throw new FilterInputError(filter, 'needs a locale such as "en-US" or "de-DE"');
}

/** An optional count of decimals, 0 to 20 (Intl's range). */
export function decimalsInput(filter: string, value: unknown): number | undefined {
  if (isNil(value) || value === '') return undefined;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 20) return n;
  throw new FilterInputError(filter, 'needs a whole number of decimals from 0 to 20');
}
