import type { Decimal } from 'decimal.js';
import { VAT_CATEGORIES, type Vat, type VatCategory } from '../model.js';
import { ZERO } from '../totals/money.js';
import { code, decimal, type Fields } from './reader.js';

const CATEGORY_SET: ReadonlySet<string> = new Set(VAT_CATEGORIES);
/** Categories whose rate is 0 by definition (EN 16931 BR-Z-05, BR-E-05, BR-AE-05, BR-IC-05, BR-G-05). */
const ZERO_RATED: ReadonlySet<VatCategory> = new Set(['Z', 'E', 'AE', 'K', 'G']);

/**
 * SPEC "VAT categories": `{ category, rate }`, category S by default. S needs a rate above 0,
 * L and M a rate, Z/E/AE/K/G a rate of 0 (sent or not), O no rate (EN 16931 BR-O-05; 0 is tolerated).
 * Returns a usable value even when invalid: the recorded issue rejects the invoice anyway.
 */
export function parseVat(f: Fields): Vat {
  const category = (code(f, 'category', CATEGORY_SET, 'VAT category (UNTDID 5305)') ?? 'S') as VatCategory;
  const rate = decimal(f, 'rate', { maxDp: 4, sign: 'nonNegative' });
  f.finish();
  if (rate?.gt(100)) f.issue('rate', 'must be at most 100');
  return { category, rate: checkRate(f, category, rate) };
}

function checkRate(f: Fields, category: VatCategory, rate: Decimal | undefined): Decimal | null {
  const sent = f.has('rate');
  if (category === 'O') {
    if (rate !== undefined && !rate.isZero())
      f.issue('rate', 'must be left out for category O (not subject to VAT)');
    return null;
  }
  if (ZERO_RATED.has(category)) {
    if (rate !== undefined && !rate.isZero()) f.issue('rate', `must be 0 for category ${category}`);
    return ZERO;
  }
  if (!sent) {
    f.issue('rate', `is required for category ${category}`);
    return ZERO;
  }
  if (category === 'S' && rate !== undefined && !rate.gt(0))
    f.issue('rate', 'must be greater than 0 for category S');
  return rate ?? ZERO;
}
