import { Decimal } from 'decimal.js';

/**
 * The one Decimal constructor for e-invoice arithmetic: exact decimal values (never binary floats)
 * with enough precision that quantity × price ÷ base quantity is exact before the final rounding.
 */
export const Dec = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_UP });

export const ZERO: Decimal = new Dec(0);

/** To cents, half away from zero (SPEC "Totals"; decimal.js ROUND_HALF_UP rounds ties away from zero). */
export function roundCents(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((acc, v) => acc.plus(v), ZERO);
}

/** `percent` % of `base`, in cents (SPEC-NOTES: percentage allowances/charges round like VAT). */
export function percentOf(base: Decimal, percent: Decimal): Decimal {
  return roundCents(base.times(percent).dividedBy(100));
}

/** quantity × net price ÷ price base quantity, in cents (SPEC "Totals"). */
export function lineGrossAmount(quantity: Decimal, unitPrice: Decimal, baseQuantity: Decimal): Decimal {
  return roundCents(quantity.times(unitPrice).dividedBy(baseQuantity));
}

/** Amount text with exactly two decimals, as the XML and the readable invoice print it. */
export function formatAmount(value: Decimal): string {
  return roundCents(value).toFixed(2);
}
