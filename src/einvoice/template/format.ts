import type { Decimal } from 'decimal.js';

/** How the readable invoice writes numbers and dates. */
export interface NumberStyle {
  decimal: ',' | '.';
  group: '.' | ',';
  /** `dmy` → 05.06.2025, `iso` → 2025-06-05 (unambiguous for every other reader). */
  date: 'dmy' | 'iso';
}

/** Countries whose invoices write 1.234,56 and 05.06.2025 (the German/continental convention). */
const COMMA_DECIMAL = new Set(
  'DE AT BE NL LU FR IT ES PT DK SE FI NO IS PL CZ SK SI HR HU RO BG GR EE LV LT'.split(' '),
);

/** The seller's convention: the invoice speaks the seller's business language. */
export function numberStyleFor(countryCode: string): NumberStyle {
  return COMMA_DECIMAL.has(countryCode.toUpperCase())
    ? { decimal: ',', group: '.', date: 'dmy' }
    : { decimal: '.', group: ',', date: 'iso' };
}

/**
 * Formats an exact decimal without binary floats: at least `minFrac` and at most `maxFrac` fraction
 * digits (trailing zeros beyond `minFrac` dropped), thousands grouped.
 */
export function formatDecimal(value: Decimal, style: NumberStyle, minFrac: number, maxFrac: number): string {
  const fixed = value.toDecimalPlaces(maxFrac).toFixed(maxFrac);
  const negative = fixed.startsWith('-');
  const [intPart = '0', fracPart = ''] = (negative ? fixed.slice(1) : fixed).split('.');
  let frac = fracPart;
  while (frac.length > minFrac && frac.endsWith('0')) frac = frac.slice(0, -1);
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, style.group);
  const body = frac ? `${grouped}${style.decimal}${frac}` : grouped;
  return negative && !/^[0.,]+$/.test(body) ? `-${body}` : body;
}

/** Money: exactly 2 decimals, the XML's value. */
export function formatAmount(value: Decimal, style: NumberStyle): string {
  return formatDecimal(value, style, 2, 2);
}

export function formatDate(isoDate: string | undefined, style: NumberStyle): string | null {
  if (!isoDate) return null;
  if (style.date === 'iso') return isoDate;
  const [y, m, d] = isoDate.split('-');
  return `${d}.${m}.${y}`;
}

/** IBAN in groups of four, as printed on paper (DIN 5008). */
export function formatIban(iban: string | undefined): string | null {
  return iban ? iban.replace(/(.{4})(?=.)/g, '$1 ') : null;
}
