import type { Invoice, InvoiceTotals, Party } from '../model.js';
import { HR_KPD_SCHEME, isValidOib } from '../xml/hr-cius.js';
import type { Issues } from './issues.js';

/** HR-BR-34: P1–P12, or P99:<the buyer's own process label>. */
const HR_PROCESS = /^(P([1-9]|1[0-2])|P99:.+)$/;
/** HR-BR-25: document types whose lines need no KPD classification. */
const NO_KPD_TYPES: ReadonlySet<string> = new Set('386 81 83 261 262 296 308 381 396 420 458 532'.split(' '));
/** HR-BR-S/Z/E/AE-1: these categories need the buyer's VAT identifier. */
const BUYER_VAT_CATEGORIES: ReadonlySet<string> = new Set(['S', 'Z', 'E', 'AE']);

/**
 * Croatia's HR-CIUS 2025 (Porezna uprava, 1.0.3) where the invoice must carry more than EN 16931 asks:
 * issue time, operator and OIB, electronic addresses, KPD classification per line, valid OIBs. Line
 * classifications without a scheme get the KPD's (`CG`). Every gap is reported at its path with the rule id.
 */
export function checkCroatia(invoice: Invoice, totals: InvoiceTotals, base: string, issues: Issues): void {
  const add = (path: string, message: string) => issues.addOnce(`${base}.${path}`, message);
  if (/\s/.test(invoice.number)) add('number', 'must not contain spaces in HR-CIUS (HR-BR-1)');
  if (invoice.issue_date && invoice.issue_date < '2026-01-01')
    add('issue_date', 'must be 2026-01-01 or later in HR-CIUS (HR-BR-40)');
  if (!invoice.issue_time) add('issue_time', 'is required in HR-CIUS: the issue time HH:MM:SS (HR-BR-2)');
  if (invoice.billing_mode && !HR_PROCESS.test(invoice.billing_mode))
    add('billing_mode', 'must be the HR-CIUS process type P1 to P12, or P99:<label> (HR-BR-34)');
  checkOperator(invoice, add);
  checkParty(invoice.seller, 'seller', 'HR-BR-7', add);
  checkParty(invoice.buyer, 'buyer', 'HR-BR-10', add);
  const categories = new Set(invoice.lines.map((l) => l.vat.category as string));
  if (!invoice.buyer.vat_id && [...categories].some((c) => BUYER_VAT_CATEGORIES.has(c)))
    add('buyer.vat_id', 'is required in HR-CIUS with VAT categories S, Z, E or AE (HR-BR-S-1)');
  if (totals.due_payable.gt(0) && !invoice.payment?.due_date)
    add('payment.due_date', 'is required in HR-CIUS when an amount is due (HR-BR-4)');
  if (invoice.preceding_invoice && !invoice.preceding_invoice.issue_date)
    add('preceding_invoice.issue_date', 'is required in HR-CIUS (HR-BR-6)');
  checkLines(invoice, add);
  for (const [key, list] of [
    ['allowances', invoice.allowances],
    ['charges', invoice.charges],
  ] as const)
    list.forEach((a, i) => {
      if (a.vat.category === 'E' || a.vat.category === 'O')
        add(
          `${key}[${i}].vat.category`,
          'E and O on document allowances and charges are not supported for HR-CIUS yet (HR-BR-11, HR-BR-13)',
        );
    });
}

type Add = (path: string, message: string) => void;

function checkOperator(invoice: Invoice, add: Add): void {
  if (!invoice.operator) {
    add('operator', 'is required in HR-CIUS: the operator name and OIB, { name, id } (HR-BR-37, HR-BR-9)');
    return;
  }
  if (!isValidOib(invoice.operator.id))
    add('operator.id', 'must be a valid OIB (11 digits, ISO 7064 check digit, HR-BR-9)');
}

/** HR-BR-7/10: electronic address; HR-BR-53: a Croatian party's VAT id is HR + a valid OIB. */
function checkParty(party: Party, role: 'seller' | 'buyer', rule: string, add: Add): void {
  if (!party.electronic_address)
    add(`${role}.electronic_address`, `is required in HR-CIUS, e.g. the OIB with scheme 9934 (${rule})`);
  if (party.address.country_code !== 'HR' || !party.vat_id) return;
  const oib = party.vat_id.startsWith('HR') ? party.vat_id.slice(2) : party.vat_id;
  if (!isValidOib(oib))
    add(`${role}.vat_id`, 'must be HR followed by a valid OIB for a Croatian party (HR-BR-53)');
}

/** HR-BR-25: a KPD classification (scheme CG) on every line, except on the document types that need none. */
function checkLines(invoice: Invoice, add: Add): void {
  const needed = !NO_KPD_TYPES.has(invoice.type_code);
  invoice.lines.forEach((line, i) => {
    if (line.classification_code && !line.classification_scheme) line.classification_scheme = HR_KPD_SCHEME;
    if (line.classification_code && line.classification_scheme !== HR_KPD_SCHEME)
      add(`lines[${i}].classification_scheme`, 'must be CG (the KPD) in HR-CIUS (HR-BR-25)');
    else if (needed && !line.classification_code)
      add(
        `lines[${i}].classification_code`,
        'is required in HR-CIUS: the KPD 2025 code of the item, e.g. 62.20.20 (HR-BR-25)',
      );
  });
}
