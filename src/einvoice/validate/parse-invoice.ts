import type { Decimal } from 'decimal.js';
import { CURRENCY_CODES, INVOICE_TYPE_CODES } from '../codes.js';
import { parseKsefFields } from '../ksef/fields.js';
import type {
  Invoice,
  InvoiceTotals,
  Period,
  PrecedingInvoice,
  TaxExemption,
  VatCategory,
} from '../model.js';
import { sum, ZERO } from '../totals/money.js';
import { parseDocAllowanceCharge, parseSentTotals, parseTaxExemptions } from './parse-document.js';
import { parseLine } from './parse-line.js';
import { parseNationalFields, parseNotes } from './parse-national.js';
import { dropUndefined, parseDelivery, parseParty } from './parse-party.js';
import { parsePayment } from './parse-payment.js';
import { array, code, date, decimal, Fields, object, optionalObject, requiredText, text } from './reader.js';

export interface ParsedInvoice {
  /** Exemptions not yet resolved against the categories in use (see rules-vat). */
  invoice: Invoice;
  sentExemptions: Partial<Record<VatCategory, TaxExemption>>;
  sentTotals: Partial<Record<keyof InvoiceTotals, Decimal>> | undefined;
}

/** SPEC "invoice" table. Field-level rules here; rules across fields are in rules-*.ts. */
export function parseInvoice(f: Fields): ParsedInvoice {
  const number = requiredText(f, 'number', 200);
  const issueDate = date(f, 'issue_date', true);
  const lines = array(f, 'lines', { required: true, min: 1, max: 2000 }).map((item, i) =>
    parseLine(item, i + 1, f.issues),
  );
  const lineTotal = sum(lines.map((l) => l.net_amount));
  const lineVats = lines.map((l) => l.vat);
  const docItems = (key: string, kind: 'allowance' | 'charge') =>
    array(f, key).map((item) => parseDocAllowanceCharge(item, kind, lineTotal, lineVats, f.issues));
  const seller = object(f, 'seller', true);
  const buyer = object(f, 'buyer', true);
  const delivery = object(f, 'delivery');
  const payment = object(f, 'payment');
  const exemptions = object(f, 'tax_exemptions');
  const totals = object(f, 'totals');
  const invoice: Invoice = {
    number,
    issue_date: issueDate ?? '',
    currency: code(f, 'currency', CURRENCY_CODES, 'ISO 4217 currency', true) ?? '',
    type_code: code(f, 'type_code', INVOICE_TYPE_CODES, 'UNTDID 1001 invoice type') ?? '380',
    buyer_reference: text(f, 'buyer_reference'),
    purchase_order_reference: text(f, 'purchase_order_reference'),
    sales_order_reference: text(f, 'sales_order_reference'),
    contract_reference: text(f, 'contract_reference'),
    project_reference: text(f, 'project_reference'),
    preceding_invoice: precedingInvoice(f),
    delivery_date: date(f, 'delivery_date'),
    billing_period: billingPeriod(f),
    // Extension: FA(3)-only fields (src/einvoice/ksef/), checked against the standard in validate.ts.
    ksef: optionalObject(f, 'ksef', parseKsefFields),
    ...parseNotes(f),
    ...parseNationalFields(f),
    seller: parseParty(seller ?? emptyAt(f, 'seller'), 'seller'),
    buyer: parseParty(buyer ?? emptyAt(f, 'buyer'), 'buyer'),
    delivery: delivery ? parseDelivery(delivery) : undefined,
    payment: payment ? parsePayment(payment, number, issueDate) : undefined,
    lines,
    allowances: docItems('allowances', 'allowance'),
    charges: docItems('charges', 'charge'),
    prepaid_amount: decimal(f, 'prepaid_amount', { maxDp: 2 }) ?? ZERO,
    rounding_amount: decimal(f, 'rounding_amount', { maxDp: 2 }) ?? ZERO,
    tax_exemptions: {},
  };
  const sentExemptions = exemptions ? parseTaxExemptions(exemptions) : {};
  const sentTotals = totals ? parseSentTotals(totals) : undefined;
  f.finish();
  return { invoice: dropUndefined(invoice), sentExemptions, sentTotals };
}

/** A stand-in for a missing required object, so its own required fields are not reported twice. */
function emptyAt(f: Fields, key: string): Fields {
  return new Fields({ name: 'missing', address: { country_code: 'DE' } }, f.at(key), f.issues);
}

function precedingInvoice(f: Fields): PrecedingInvoice | undefined {
  return optionalObject(f, 'preceding_invoice', (sub) =>
    dropUndefined({ number: requiredText(sub, 'number'), issue_date: date(sub, 'issue_date') }),
  );
}

/** BG-14: both ends required (SPEC), end not before start (BR-29). */
function billingPeriod(f: Fields): Period | undefined {
  return optionalObject(f, 'billing_period', (sub) => {
    const start = date(sub, 'start', true) ?? '';
    const end = date(sub, 'end', true) ?? '';
    if (start && end && end < start) sub.issue('end', 'must not be before start');
    return { start, end };
  });
}
