import type { Decimal } from 'decimal.js';
import { ALLOWANCE_REASON_CODES, CHARGE_REASON_CODES, ICD_SCHEMES, UNIT_CODES } from '../codes.js';
import type { Line, LineAllowanceCharge, LinePeriod } from '../model.js';
import { Dec, lineGrossAmount, percentOf, sum, ZERO } from '../totals/money.js';
import { dropUndefined } from './parse-party.js';
import { parseVat } from './parse-vat.js';
import {
  type ArrayItem,
  array,
  code,
  date,
  decimal,
  Fields,
  object,
  optionalObject,
  requiredText,
  text,
} from './reader.js';

const ONE = new Dec(1);

/** SPEC "Line". `position` is 1-based and is the default line id. */
export function parseLine(item: ArrayItem, position: number, issues: Fields['issues']): Line {
  const f = Fields.of(item.value, item.path, issues) ?? new Fields({}, item.path, issues);
  const quantity = decimal(f, 'quantity', { required: true, maxDp: 6 });
  const unitPrice = decimal(f, 'unit_price', { required: true, maxDp: 6, sign: 'nonNegative' });
  const baseQuantity = decimal(f, 'price_base_quantity', { maxDp: 6, sign: 'positive' }) ?? ONE;
  const vatFields = object(f, 'vat', true);
  const gross = quantity && unitPrice ? lineGrossAmount(quantity, unitPrice, baseQuantity) : ZERO;
  const allowances = array(f, 'allowances').map((a) => lineAllowanceCharge(a, 'allowance', gross, issues));
  const charges = array(f, 'charges').map((c) => lineAllowanceCharge(c, 'charge', gross, issues));
  const line: Line = {
    id: text(f, 'id') ?? String(position),
    name: requiredText(f, 'name'),
    quantity: quantity ?? ZERO,
    unit_price: unitPrice ?? ZERO,
    unit_code: code(f, 'unit_code', UNIT_CODES, 'UN/ECE Rec. 20 unit') ?? 'C62',
    price_base_quantity: baseQuantity,
    vat: vatFields ? parseVat(vatFields) : { category: 'S', rate: ZERO },
    description: text(f, 'description', { max: 5000 }),
    note: text(f, 'note', { max: 5000 }),
    seller_item_id: text(f, 'seller_item_id'),
    buyer_item_id: text(f, 'buyer_item_id'),
    ...standardItem(f),
    order_line_reference: text(f, 'order_line_reference'),
    ...classification(f),
    period: linePeriod(f),
    allowances,
    charges,
    gross_amount: gross,
    net_amount: gross.minus(sum(allowances.map((a) => a.amount))).plus(sum(charges.map((c) => c.amount))),
  };
  f.finish();
  return dropUndefined(line);
}

/** BT-158 item classification with its UNTDID 7143 scheme (e.g. `CG` for the Croatian KPD). */
function classification(f: Fields): Pick<Line, 'classification_code' | 'classification_scheme'> {
  const code = text(f, 'classification_code', { max: 100 });
  const scheme = text(f, 'classification_scheme', { max: 3 });
  if (scheme !== undefined && !/^[A-Z]{1,3}$/.test(scheme))
    f.issue('classification_scheme', 'must be a UNTDID 7143 code such as CG, STI or HS');
  // A code without its scheme is completed (HR-CIUS: CG) or reported in rules-national.ts.
  else if (scheme !== undefined && code === undefined)
    f.issue('classification_code', 'is required with classification_scheme');
  return { classification_code: code, classification_scheme: scheme };
}

/** BR-64: the item standard identifier carries its scheme (ISO 6523 ICD, BR-CL-21). */
function standardItem(f: Fields): Pick<Line, 'standard_item_id' | 'standard_item_scheme'> {
  const id = text(f, 'standard_item_id');
  const scheme = code(f, 'standard_item_scheme', ICD_SCHEMES, 'ISO 6523 ICD scheme');
  if (id !== undefined && scheme === undefined && !f.issues.hasAt(f.at('standard_item_scheme')))
    f.issue('standard_item_scheme', 'is required with standard_item_id');
  if (scheme !== undefined && id === undefined)
    f.issue('standard_item_id', 'is required with standard_item_scheme');
  return { standard_item_id: id, standard_item_scheme: scheme };
}

/** BG-26: start or end (BR-CO-20), end not before start (BR-30). */
function linePeriod(f: Fields): LinePeriod | undefined {
  return optionalObject(f, 'period', (sub) => {
    const period = dropUndefined({ start: date(sub, 'start'), end: date(sub, 'end') });
    if (!sub.has('start') && !sub.has('end')) sub.issue('start', 'start or end is required');
    if (period.start && period.end && period.end < period.start) sub.issue('end', 'must not be before start');
    return period;
  });
}

/**
 * SPEC "Line" allowances/charges: `amount` (2 decimals) or `percent` of the line amount, agreeing when
 * both are sent; a `reason` or a `reason_code` (UNTDID 5189 / 7161, BR-41/42, BR-43/44).
 */
function lineAllowanceCharge(
  item: ArrayItem,
  kind: 'allowance' | 'charge',
  gross: Decimal,
  issues: Fields['issues'],
): LineAllowanceCharge {
  const f = Fields.of(item.value, item.path, issues) ?? new Fields({}, item.path, issues);
  const amount = resolveAmount(f, gross);
  const result = dropUndefined({ ...amount, ...reasonOf(f, kind) });
  f.finish();
  return result;
}

/** Shared by line and document allowances/charges: the final amount from amount and/or percent. */
export function resolveAmount(
  f: Fields,
  base: Decimal,
): { amount: Decimal; percent?: Decimal; base_amount?: Decimal } {
  const amount = decimal(f, 'amount', { maxDp: 2, sign: 'nonNegative' });
  const percent = decimal(f, 'percent', { maxDp: 4, sign: 'nonNegative' });
  if (!f.has('amount') && !f.has('percent')) f.issue('amount', 'amount or percent is required');
  if (percent === undefined) return { amount: amount ?? ZERO };
  const computed = percentOf(base, percent);
  if (amount !== undefined && !amount.eq(computed))
    f.issue(
      'amount',
      `does not agree with percent: ${percent} % of ${base.toFixed(2)} is ${computed.toFixed(2)}`,
    );
  return { amount: amount ?? computed, percent, base_amount: base };
}

export function reasonOf(f: Fields, kind: 'allowance' | 'charge'): { reason?: string; reason_code?: string } {
  const list = kind === 'allowance' ? ALLOWANCE_REASON_CODES : CHARGE_REASON_CODES;
  const label = kind === 'allowance' ? 'UNTDID 5189 allowance reason' : 'UNTDID 7161 charge reason';
  const reason = text(f, 'reason');
  const reasonCode = code(f, 'reason_code', list, label);
  const broken = f.issues.hasAt(f.at('reason')) || f.issues.hasAt(f.at('reason_code'));
  if (reason === undefined && reasonCode === undefined && !broken)
    f.issue('reason', 'reason or reason_code is required');
  return { reason, reason_code: reasonCode };
}
