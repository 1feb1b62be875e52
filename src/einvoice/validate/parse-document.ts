import type { Decimal } from 'decimal.js';
import { VATEX_CODES } from '../codes.js';
import {
  type DocAllowanceCharge,
  type InvoiceTotals,
  type TaxExemption,
  TOTAL_FIELDS,
  VAT_CATEGORIES,
  type Vat,
  type VatCategory,
} from '../model.js';
import { vatKey } from '../totals/compute.js';
import { ZERO } from '../totals/money.js';
import { reasonOf, resolveAmount } from './parse-line.js';
import { dropUndefined } from './parse-party.js';
import { parseVat } from './parse-vat.js';
import { type ArrayItem, code, decimal, Fields, object, text } from './reader.js';

/**
 * SPEC "Document allowance/charge": amount or percent of `base_amount` (default: the sum of line net
 * amounts), a reason or code, and a `vat` that may only be left out when the lines use one VAT rate.
 */
export function parseDocAllowanceCharge(
  item: ArrayItem,
  kind: 'allowance' | 'charge',
  lineTotal: Decimal,
  lineVats: readonly Vat[],
  issues: Fields['issues'],
): DocAllowanceCharge {
  const f = Fields.of(item.value, item.path, issues) ?? new Fields({}, item.path, issues);
  const base = decimal(f, 'base_amount', { maxDp: 2 });
  const amount = resolveAmount(f, base ?? lineTotal);
  if (base !== undefined) amount.base_amount = base;
  const reason = reasonOf(f, kind);
  const vatFields = object(f, 'vat');
  const vat = vatFields ? parseVat(vatFields) : defaultVat(f, lineVats);
  f.finish();
  return dropUndefined({ ...amount, ...reason, vat });
}

function defaultVat(f: Fields, lineVats: readonly Vat[]): Vat {
  const distinct = new Map(lineVats.map((v) => [vatKey(v), v]));
  const [only] = distinct.values();
  if (distinct.size === 1 && only) return only;
  if (distinct.size > 1) f.issue('vat', 'is required when the lines use more than one VAT category or rate');
  return { category: 'S', rate: ZERO };
}

const NOT_EXEMPT: ReadonlySet<string> = new Set(['S', 'Z', 'L', 'M']);
const CATEGORY_SET: ReadonlySet<string> = new Set(VAT_CATEGORIES);

/** SPEC "tax_exemptions": a map of VAT category to `{ reason, code }`; S, Z, L, M entries are errors. */
export function parseTaxExemptions(f: Fields): Partial<Record<VatCategory, TaxExemption>> {
  const result: Partial<Record<VatCategory, TaxExemption>> = {};
  for (const key of Object.keys(f.raw)) {
    const value = f.get(key);
    if (value === undefined) continue;
    if (!CATEGORY_SET.has(key)) f.issue(key, 'is not a VAT category (UNTDID 5305)');
    else if (NOT_EXEMPT.has(key)) f.issue(key, `must not be given: category ${key} is not an exemption`);
    else {
      const entry = Fields.of(value, f.at(key), f.issues);
      if (entry) result[key as VatCategory] = exemption(entry);
    }
  }
  return result;
}

function exemption(f: Fields): TaxExemption {
  const result = dropUndefined({
    reason: text(f, 'reason'),
    code: code(f, 'code', VATEX_CODES, 'VATEX exemption reason'),
  });
  f.finish();
  return result;
}

/** The optional `totals` the caller computed; each sent field is compared with ours. */
export function parseSentTotals(f: Fields): Partial<Record<keyof InvoiceTotals, Decimal>> {
  const result: Partial<Record<keyof InvoiceTotals, Decimal>> = {};
  for (const field of TOTAL_FIELDS) {
    const value = decimal(f, field, { maxDp: 2 });
    if (value !== undefined) result[field] = value;
  }
  f.finish();
  return result;
}
