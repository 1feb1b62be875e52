import type { Invoice, Standard } from '../model.js';
import type { Issues } from '../validate/issues.js';
import { EU_VAT_PREFIXES, isNip, markerOf, nipOfVatId } from './rates.js';

/** Invoice type codes FA(3) output supports: 380 → VAT, 381 (credit note) and 384 (corrected invoice) → KOR. */
export const KSEF_TYPE_CODES: ReadonlySet<string> = new Set(['380', '381', '384']);

/** The seller's NIP: `vat_id` PL + NIP, or `tax_number` holding the bare NIP (category O invoices carry no VAT id). */
export function sellerNip(invoice: Invoice): string | undefined {
  return nipOfVatId(invoice.seller.vat_id) ?? invoice.seller.tax_number?.replace(/[\s-]/g, '');
}

/** How FA(3) identifies the buyer (Podmiot2 DaneIdentyfikacyjne). */
export type BuyerId =
  | { kind: 'nip'; nip: string }
  | { kind: 'eu'; country: string; number: string }
  | { kind: 'other'; country?: string; id: string }
  | { kind: 'none' };

export function buyerId(invoice: Invoice): BuyerId {
  const { vat_id: vatId, id, address } = invoice.buyer;
  const nip = nipOfVatId(vatId);
  if (nip !== undefined) return { kind: 'nip', nip };
  const compact = vatId?.replace(/[\s-]/g, '').toUpperCase();
  if (compact && EU_VAT_PREFIXES.has(compact.slice(0, 2)))
    return { kind: 'eu', country: compact.slice(0, 2), number: compact.slice(2) };
  const other = vatId ?? id;
  return other ? { kind: 'other', country: address.country_code, id: other } : { kind: 'none' };
}

/**
 * What FA(3) needs beyond EN 16931, as `invalid_e_invoice` issues with their paths. Only for `standard:
 * "ksef"`; `invoice.ksef` on another standard is an issue itself (those outputs have no place for it).
 */
export function checkKsef(invoice: Invoice, standard: Standard, base: string, issues: Issues): void {
  if (standard !== 'ksef') {
    if (invoice.ksef) issues.add(`${base}.ksef`, 'is only used with standard ksef');
    return;
  }
  checkParties(invoice, base, issues);
  checkKind(invoice, base, issues);
  checkAmounts(invoice, base, issues);
  checkLimits(invoice, base, issues);
  const polishBuyer = buyerId(invoice).kind === 'nip';
  invoice.lines.forEach((line, i) => {
    const marker = markerOf(line.vat, polishBuyer);
    if (typeof marker !== 'string') issues.add(`${base}.lines[${i}].vat`, marker.problem);
    if (line.charges.length > 0)
      issues.add(`${base}.lines[${i}].charges`, 'FA(3) has no line charges: include them in unit_price');
  });
}

function checkParties(invoice: Invoice, base: string, issues: Issues): void {
  const nip = sellerNip(invoice);
  const fromVatId = nipOfVatId(invoice.seller.vat_id) !== undefined;
  if (nip === undefined)
    issues.addOnce(
      `${base}.seller.vat_id`,
      'KSeF FA(3) needs the seller NIP: vat_id "PL" followed by the 10-digit NIP (or tax_number with the NIP)',
    );
  else if (!isNip(nip))
    issues.addOnce(
      fromVatId ? `${base}.seller.vat_id` : `${base}.seller.tax_number`,
      `"${nip}" is not a valid Polish NIP (10 digits with a check digit)`,
    );
  const { address } = invoice.seller;
  if (!address.line1 && !address.city)
    issues.addOnce(`${base}.seller.address.line1`, 'KSeF FA(3) needs the seller address (line1 or city)');
  const buyer = buyerId(invoice);
  if (buyer.kind === 'nip' && !isNip(buyer.nip))
    issues.addOnce(`${base}.buyer.vat_id`, `"${buyer.nip}" is not a valid Polish NIP`);
  if (buyer.kind === 'eu' && !/^[0-9A-Z+*]{1,12}$/.test(buyer.number))
    issues.addOnce(
      `${base}.buyer.vat_id`,
      'the EU VAT number after the country prefix must be 1–12 letters or digits',
    );
}

function checkKind(invoice: Invoice, base: string, issues: Issues): void {
  if (!KSEF_TYPE_CODES.has(invoice.type_code)) {
    issues.add(
      `${base}.type_code`,
      'KSeF FA(3) output supports 380 (invoice, VAT) and 381 or 384 (correction, KOR)',
    );
    return;
  }
  const ksef = invoice.ksef ?? {};
  if (invoice.type_code === '380') {
    for (const key of ['corrected_ksef_number', 'correction_reason', 'correction_type'] as const)
      if (ksef[key] !== undefined)
        issues.add(`${base}.ksef.${key}`, 'is only used with a correction (type_code 381 or 384)');
    return;
  }
  if (!invoice.preceding_invoice)
    issues.addOnce(
      `${base}.preceding_invoice`,
      'a correction (KOR) must name the corrected invoice: number and issue_date',
    );
  else if (!invoice.preceding_invoice.issue_date)
    issues.addOnce(
      `${base}.preceding_invoice.issue_date`,
      'a correction (KOR) needs the corrected invoice issue date',
    );
}

function checkAmounts(invoice: Invoice, base: string, issues: Issues): void {
  if (invoice.currency !== 'PLN' && invoice.ksef?.exchange_rate === undefined)
    issues.addOnce(
      `${base}.ksef.exchange_rate`,
      `is required for an invoice in ${invoice.currency}: PLN per 1 ${invoice.currency}, as FA(3) states the VAT in PLN`,
    );
  if (invoice.currency === 'PLN' && invoice.ksef?.exchange_rate !== undefined)
    issues.add(`${base}.ksef.exchange_rate`, 'must be left out for an invoice in PLN');
  if (invoice.allowances.length > 0 || invoice.charges.length > 0)
    issues.add(
      `${base}.${invoice.allowances.length > 0 ? 'allowances' : 'charges'}`,
      'FA(3) has no document-level allowances or charges: put them on the lines',
    );
  if (!invoice.prepaid_amount.isZero())
    issues.add(`${base}.prepaid_amount`, 'is not available in KSeF FA(3) output');
  if (invoice.notes.length > 3) issues.add(`${base}.notes`, 'KSeF FA(3) carries at most 3 notes');
}

/** FA(3) field sizes (TZnakowy 256, TZnakowy512, TZnakowy50, TNumerTelefonu 16, TTekstowy 3500) the model allows past. */
function checkLimits(invoice: Invoice, base: string, issues: Issues): void {
  const limit = (path: string, value: string | undefined, max: number, what = '') => {
    if (value !== undefined && [...value].length > max)
      issues.addOnce(`${base}.${path}`, `KSeF FA(3) allows at most ${max} characters${what}`);
  };
  for (const role of ['seller', 'buyer'] as const) {
    const party = invoice[role];
    limit(`${role}.name`, party.name, 512);
    limit(`${role}.contact.phone`, party.contact?.phone, 16);
    limit(`${role}.id`, party.id, 50);
    const a = party.address;
    limit(
      `${role}.address.line1`,
      [a.line1, a.line2, a.line3].filter(Boolean).join(', '),
      512,
      ' for line1–line3 together',
    );
  }
  for (const [i, note] of invoice.notes.entries()) limit(`notes[${i}]`, note, 3500);
  invoice.lines.forEach((line, i) => {
    limit(`lines[${i}].name`, line.name, 512);
    limit(`lines[${i}].seller_item_id`, line.seller_item_id, 50);
    limit(`lines[${i}].unit_code`, line.unit_code, 256);
    if (line.quantity.decimalPlaces() > 6)
      issues.add(`${base}.lines[${i}].quantity`, 'KSeF FA(3) allows at most 6 decimals');
  });
  limit('payment.terms', invoice.payment?.terms, 256);
  limit('payment.means_text', invoice.payment?.means_text, 256);
  limit('preceding_invoice.number', invoice.preceding_invoice?.number, 256);
  const iban = invoice.payment?.iban;
  if (iban !== undefined && iban.length < 10)
    issues.add(`${base}.payment.iban`, 'KSeF FA(3) needs at least 10 characters');
  if (invoice.issue_date < '2006-01-01' || invoice.issue_date > '2050-01-01')
    issues.addOnce(`${base}.issue_date`, 'KSeF FA(3) accepts issue dates from 2006-01-01 to 2050-01-01');
}
