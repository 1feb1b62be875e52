import { Decimal } from 'decimal.js';
import type { Vat, VatCategory } from '../model.js';

/**
 * Polish VAT rates and markers (FA(3) P_12, TStawkaPodatku) as EN 16931 VAT categories, and the totals group
 * (P_13_x / P_14_x) each belongs to. The mapping is the one the Ministry's FA(3) information sheet gives:
 * 0 % domestic (Z) is "0 KR", intra-EU supply (K) "0 WDT", export (G) "0 EX", exempt (E) "zw", outside
 * the scope (O) "np I", reverse charge (AE) "oo" for a Polish buyer and "np II" (art. 100 services) for one
 * from another EU state.
 */
export type KsefMarker =
  | '23'
  | '22'
  | '8'
  | '7'
  | '5'
  | '0 KR'
  | '0 WDT'
  | '0 EX'
  | 'zw'
  | 'oo'
  | 'np I'
  | 'np II';

/** The totals group of each marker: P_13_1 … P_13_10 (P_14_1 … P_14_3 carry the tax of the taxed ones). */
export const GROUP_OF: Readonly<Record<KsefMarker, string>> = {
  '23': '1',
  '22': '1',
  '8': '2',
  '7': '2',
  '5': '3',
  '0 KR': '6_1',
  '0 WDT': '6_2',
  '0 EX': '6_3',
  zw: '7',
  'np I': '8',
  'np II': '9',
  oo: '10',
};

/** The groups in the schema's order; the taxed ones (1–3) have P_14_x and P_14_xW. */
export const GROUPS = ['1', '2', '3', '6_1', '6_2', '6_3', '7', '8', '9', '10'] as const;
export const TAXED_GROUPS: ReadonlySet<string> = new Set(['1', '2', '3']);

const RATES = new Set(['23', '22', '8', '7', '5']);

/** The FA(3) marker for a VAT category and rate, or a message saying why there is none. */
export function markerOf(vat: Vat, buyerIsPolish: boolean): KsefMarker | { problem: string } {
  switch (vat.category) {
    case 'S': {
      const rate = vat.rate?.toString() ?? '';
      if (RATES.has(rate)) return rate as KsefMarker;
      return { problem: `rate ${rate}% is not a Polish VAT rate: use 23, 8 or 5 (22 or 7 for past periods)` };
    }
    case 'Z':
      return '0 KR';
    case 'K':
      return '0 WDT';
    case 'G':
      return '0 EX';
    case 'E':
      return 'zw';
    case 'O':
      return 'np I';
    case 'AE':
      return buyerIsPolish ? 'oo' : 'np II';
    default:
      return { problem: `category ${vat.category} has no FA(3) marker (it is used outside Poland only)` };
  }
}

const CATEGORY_OF: Readonly<Record<KsefMarker, VatCategory>> = {
  '23': 'S',
  '22': 'S',
  '8': 'S',
  '7': 'S',
  '5': 'S',
  '0 KR': 'Z',
  '0 WDT': 'K',
  '0 EX': 'G',
  zw: 'E',
  'np I': 'O',
  'np II': 'AE',
  oo: 'AE',
};

/** The model's VAT (request shape: rate as a string, none for O) for an FA(3) marker. */
export function vatOfMarker(marker: string): { category: VatCategory; rate?: string } | undefined {
  const category = CATEGORY_OF[marker as KsefMarker];
  if (category === undefined) return undefined;
  if (category === 'O') return { category };
  return { category, rate: category === 'S' ? marker : '0' };
}

const NIP_WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7];
const NIP_PATTERN = /^[1-9]((\d[1-9])|([1-9]\d))\d{7}$/;

/** A Polish NIP: the schema's pattern (TNrNIP) and the check digit (weights 6 5 7 2 3 4 5 6 7, mod 11). */
export function isNip(value: string): boolean {
  if (!NIP_PATTERN.test(value)) return false;
  const digits = [...value].map(Number);
  const sum = NIP_WEIGHTS.reduce((acc, w, i) => acc + w * (digits[i] ?? 0), 0);
  return sum % 11 === digits[9];
}

/** The NIP inside a VAT id `PL5265877635` (blanks and dashes tolerated), or undefined. */
export function nipOfVatId(vatId: string | undefined): string | undefined {
  if (vatId === undefined) return undefined;
  const compact = vatId.replace(/[\s-]/g, '').toUpperCase();
  return compact.startsWith('PL') ? compact.slice(2) : undefined;
}

/** EU member-state prefixes of VAT ids (TKodyKrajowUE; Greece is EL, Northern Ireland XI). */
export const EU_VAT_PREFIXES: ReadonlySet<string> = new Set(
  'AT BE BG CY CZ DK EE FI FR DE EL HR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE XI'.split(' '),
);

/** Two decimals, half away from zero, as FA(3) amounts are written. */
export function toPln(amount: Decimal, rate: Decimal): Decimal {
  return amount.times(rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** FA(3) amounts: two decimals, negative for a correction that lowers the invoice. */
export function signed(value: Decimal, negate: boolean): string {
  return (negate ? value.negated() : value).toFixed(2);
}
