import type { Invoice, InvoiceTotals, Party, Vat } from '../model.js';
import {
  FR_BILLING_MODES,
  FR_MANDATORY_NOTE_SUBJECTS,
  FR_TYPE_CODES,
  FR_VAT_RATES,
  SIREN_SCHEME,
  SIRET_SCHEME,
} from '../xml/fr-ctc.js';
import type { Issues } from './issues.js';

/** BR-FR-01/02: invoice numbers up to 35 characters of letters, digits and + - _ /. */
const FR_NUMBER = /^[A-Za-z0-9+\-_/]{1,35}$/;
/** BR-FR-23: what an electronic address with scheme 0225 (SIREN-based routing) may contain. */
const FR_ADDRESS_0225 = /^[A-Za-z0-9._-]+$/;
const CREDIT_NOTES: ReadonlySet<string> = new Set(['261', '381', '396', '502', '503']);
const CORRECTIONS: ReadonlySet<string> = new Set(['384', '471', '472', '473']);
const PREPAYMENTS: ReadonlySet<string> = new Set(['386', '500', '503']);
const PAID_MODES: ReadonlySet<string> = new Set(['B2', 'S2', 'M2']);
/** Multi-vendor (8) and two-way (9) invoices need sub-lines and line-level invoice numbers Quire's model has not. */
const UNSUPPORTED_MODES: ReadonlySet<string> = new Set(['B8', 'S8', 'M8', 'B9', 'S9', 'M9']);
const BAR_VALUES: ReadonlySet<string> = new Set(['B2B', 'B2BINT', 'B2C', 'OUTOFSCOPE', 'ARCHIVEONLY']);

/**
 * France's BR-FR rules (FNFE-MPE "Flux 2", 1.4.0.03) and the EXTENDED-CTC-FR profile, as far as the invoice
 * must carry something EN 16931 leaves optional: every missing or unusable value is reported at its path,
 * with the rule id, before anything is written. The official schematron checks the output as well.
 */
export function checkFrance(invoice: Invoice, totals: InvoiceTotals, base: string, issues: Issues): void {
  const add = (path: string, message: string) => issues.addOnce(`${base}.${path}`, message);
  checkDocument(invoice, totals, add);
  checkNotes(invoice, add);
  checkSeller(invoice.seller, add);
  checkBuyer(invoice, add);
  invoice.lines.forEach((line, i) => {
    checkVat(line.vat, `lines[${i}].vat`, add);
    if (line.quantity.decimalPlaces() > 4)
      add(`lines[${i}].quantity`, 'must have at most 4 decimals in France (BR-FR-DEC-02)');
  });
  for (const [key, list] of [
    ['allowances', invoice.allowances],
    ['charges', invoice.charges],
  ] as const)
    list.forEach((a, i) => {
      checkVat(a.vat, `${key}[${i}].vat`, add);
    });
}

type Add = (path: string, message: string) => void;

function checkDocument(invoice: Invoice, totals: InvoiceTotals, add: Add): void {
  const mode = invoice.billing_mode;
  if (!mode)
    add(
      'billing_mode',
      `is required in France: the billing mode (BT-23), one of ${FR_BILLING_MODES.join(', ')} (BR-FR-08)`,
    );
  else if (!(FR_BILLING_MODES as readonly string[]).includes(mode))
    add('billing_mode', `must be one of ${FR_BILLING_MODES.join(', ')} (BR-FR-08)`);
  else if (UNSUPPORTED_MODES.has(mode))
    add('billing_mode', `${mode} (multi-vendor or two-way invoices) needs sub-lines Quire cannot write yet`);
  if (!FR_NUMBER.test(invoice.number))
    add('number', 'must be at most 35 letters, digits or + - _ / in France (BR-FR-01, BR-FR-02)');
  if (!FR_TYPE_CODES.has(invoice.type_code))
    add('type_code', `must be one of ${[...FR_TYPE_CODES].join(', ')} in France (BR-FR-04)`);
  if (invoice.currency !== 'EUR')
    add(
      'currency',
      'must be EUR: another currency needs the VAT total in EUR (BT-6/BT-111, BR-FR-CO-12), which Quire cannot write yet',
    );
  const preceding = invoice.preceding_invoice;
  if ((CREDIT_NOTES.has(invoice.type_code) || CORRECTIONS.has(invoice.type_code)) && !preceding?.issue_date)
    add(
      'preceding_invoice.issue_date',
      'is required: a French credit note or corrected invoice names the invoice it changes with its date (BR-FR-CO-04, BR-FR-CO-05)',
    );
  if (invoice.type_code === '262' && (!invoice.contract_reference || !invoice.billing_period))
    add(
      invoice.contract_reference ? 'billing_period' : 'contract_reference',
      'is required for a global allowance credit note (type 262, BR-FR-CO-03)',
    );
  checkDueDate(invoice, totals, add);
}

function checkDueDate(invoice: Invoice, totals: InvoiceTotals, add: Add): void {
  const due = invoice.payment?.due_date;
  const paid = PAID_MODES.has(invoice.billing_mode ?? '');
  if (paid && !due)
    add(
      'payment.due_date',
      'is required with an already-paid billing mode: the date of payment (BR-FR-CO-09)',
    );
  if (paid && !totals.due_payable.isZero())
    add(
      'prepaid_amount',
      'must equal the invoice total with an already-paid billing mode (B2, S2, M2): nothing is left to pay (BR-FR-CO-09)',
    );
  if (due && !paid && !PREPAYMENTS.has(invoice.type_code) && due < invoice.issue_date)
    add('payment.due_date', 'must not be before issue_date (BR-FR-CO-07)');
}

function checkNotes(invoice: Invoice, add: Add): void {
  const subjects = invoice.note_subjects ?? [];
  for (const code of [...FR_MANDATORY_NOTE_SUBJECTS, 'TXD']) {
    const count = subjects.filter((s) => s === code).length;
    if (count === 0 && code !== 'TXD')
      add('notes', `needs a note with subject_code ${code} (${NOTE_MEANING[code]}, BR-FR-05)`);
    if (count > 1) add('notes', `may have only one note with subject_code ${code} (BR-FR-06)`);
  }
  const bars = invoice.notes.filter((_, i) => subjects[i] === 'BAR');
  if (bars.length > 1) add('notes', 'may have only one note with subject_code BAR (BR-FR-31)');
  if (bars[0] !== undefined && !BAR_VALUES.has(bars[0]))
    add('notes', `a note with subject_code BAR must say one of ${[...BAR_VALUES].join(', ')} (BR-FR-20)`);
  if (bars[0] === 'B2B') checkB2bRouting(invoice, add);
}

const NOTE_MEANING: Readonly<Record<string, string>> = {
  PMT: 'the fixed recovery fee',
  PMD: 'the late-payment penalties',
  AAB: 'the early-payment discount or its absence',
};

/** BR-FR-11/21: a B2B invoice is routed by the buyer's SIREN: its address (scheme 0225) starts with it. */
function checkB2bRouting(invoice: Invoice, add: Add): void {
  const buyer = invoice.buyer;
  const siren = buyer.legal_registration_scheme === SIREN_SCHEME ? buyer.legal_registration_id : undefined;
  if (!siren) {
    add(
      'buyer.legal_registration_id',
      'is required for a B2B invoice: the buyer SIREN with legal_registration_scheme 0002 (BR-FR-11)',
    );
    return;
  }
  const address = buyer.electronic_address;
  if (address && (address.scheme !== '0225' || !address.value.startsWith(siren)))
    add(
      'buyer.electronic_address',
      'must be the buyer SIREN-based address (scheme 0225, starting with the SIREN) for a B2B invoice (BR-FR-21)',
    );
}

/** BR-FR-10, BR-FR-09, BR-FR-13: the seller's SIREN, its SIRET if any, and its electronic address. */
function checkSeller(seller: Party, add: Add): void {
  if (seller.legal_registration_scheme !== SIREN_SCHEME || !seller.legal_registration_id)
    add(
      'seller.legal_registration_id',
      'is required in France: the seller SIREN (9 digits) with legal_registration_scheme 0002 (BR-FR-10)',
    );
  checkIdentifiers(seller, 'seller', add);
  checkAddress(seller, 'seller', 'BR-FR-13', add);
}

function checkBuyer(invoice: Invoice, add: Add): void {
  checkIdentifiers(invoice.buyer, 'buyer', add);
  checkAddress(invoice.buyer, 'buyer', 'BR-FR-12', add);
}

/** BR-FR-32 (SIREN: 9 digits) and BR-FR-09 (SIRET: 14 digits beginning with the SIREN). */
function checkIdentifiers(party: Party, role: 'seller' | 'buyer', add: Add): void {
  const siren = party.legal_registration_scheme === SIREN_SCHEME ? party.legal_registration_id : undefined;
  if (siren !== undefined && !/^\d{9}$/.test(siren))
    add(`${role}.legal_registration_id`, 'must be a SIREN of 9 digits with scheme 0002 (BR-FR-32)');
  if (party.id_scheme !== SIRET_SCHEME || party.id === undefined) return;
  const expected = siren ?? party.id.slice(0, 9);
  if (!/^\d{14}$/.test(party.id) || !party.id.startsWith(expected))
    add(
      `${role}.id`,
      'must be a SIRET of 14 digits beginning with the SIREN when id_scheme is 0009 (BR-FR-09)',
    );
}

function checkAddress(party: Party, role: 'seller' | 'buyer', rule: string, add: Add): void {
  const address = party.electronic_address;
  if (!address) {
    add(
      `${role}.electronic_address`,
      `is required in France: the address the platforms route the invoice by (${rule})`,
    );
    return;
  }
  if (address.value.length > 125)
    add(`${role}.electronic_address.value`, 'must be at most 125 characters (BR-FR-25)');
  if (address.scheme === '0225' && !FR_ADDRESS_0225.test(address.value))
    add(
      `${role}.electronic_address.value`,
      'may contain only letters, digits and - _ . with scheme 0225 (BR-FR-23)',
    );
}

/** BR-FR-15 (no L or M in France) and BR-FR-16 (the French rates). */
function checkVat(vat: Vat, path: string, add: Add): void {
  if (vat.category === 'L' || vat.category === 'M')
    add(`${path}.category`, 'L and M (Canary Islands, Ceuta and Melilla) do not apply in France (BR-FR-15)');
  else if (vat.rate !== null && !FR_VAT_RATES.includes(vat.rate.toString()))
    add(`${path}.rate`, `must be a French VAT rate: ${FR_VAT_RATES.join(', ')} (BR-FR-16)`);
}
