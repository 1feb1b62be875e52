import type { Address, Invoice, Payment } from '../model.js';
import type { Issues } from './issues.js';
import { SKONTO_LINE, TRANSFER_MEANS } from './parse-payment.js';

/** XRechnung's invoice type codes (BR-DE-17, SPEC "type_code"). */
const XRECHNUNG_TYPES: ReadonlySet<string> = new Set([
  '326',
  '380',
  '381',
  '384',
  '389',
  '875',
  '876',
  '877',
]);
/** Card payments need BG-18 (BR-DE-24-a), which the spec's payment object cannot carry. */
const CARD_MEANS: ReadonlySet<string> = new Set(['48', '54', '55']);

/**
 * SPEC "XRechnung additionally requires", plus BR-DE-10/11 (delivery address), BR-DE-18 (Skonto
 * syntax), BR-DE-23/24/25/30/31 (payment groups) from SPEC-NOTES. Every missing item is listed.
 */
export function checkXRechnung(invoice: Invoice, base: string, issues: Issues): void {
  const add = (path: string, message: string) => issues.addOnce(`${base}.${path}`, message);
  if (!XRECHNUNG_TYPES.has(invoice.type_code))
    add('type_code', `must be one of ${[...XRECHNUNG_TYPES].join(', ')} for XRechnung`);
  if (!invoice.buyer_reference) add('buyer_reference', 'is required for XRechnung (Leitweg-ID, BR-DE-15)');
  const { seller, buyer } = invoice;
  if (!issues.hasExactly(`${base}.seller`)) {
    if (!seller.contact?.name) add('seller.contact.name', 'is required for XRechnung (BR-DE-5)');
    if (!seller.contact?.phone) add('seller.contact.phone', 'is required for XRechnung (BR-DE-6)');
    else if ((seller.contact.phone.match(/[0-9]/g) ?? []).length < 3)
      add('seller.contact.phone', 'must contain at least three digits (BR-DE-27)');
    if (!seller.contact?.email) add('seller.contact.email', 'is required for XRechnung (BR-DE-7)');
    if (!seller.electronic_address) add('seller.electronic_address', 'is required for XRechnung');
    if (!seller.vat_id && !seller.tax_number)
      add('seller.vat_id', 'vat_id or tax_number is required for XRechnung');
    cityAndPostcode(seller.address, 'seller.address', add);
  }
  if (!issues.hasExactly(`${base}.buyer`)) {
    if (!buyer.electronic_address) add('buyer.electronic_address', 'is required for XRechnung');
    cityAndPostcode(buyer.address, 'buyer.address', add);
  }
  if (invoice.delivery?.address) cityAndPostcode(invoice.delivery.address, 'delivery.address', add);
  if (!invoice.payment) add('payment', 'is required for XRechnung, with at least means_code (BR-DE-1)');
  else checkXRechnungPayment(invoice.payment, add);
}

type Add = (path: string, message: string) => void;

function cityAndPostcode(address: Address, path: string, add: Add): void {
  if (!address.city) add(`${path}.city`, 'is required for XRechnung');
  if (!address.postal_code) add(`${path}.postal_code`, 'is required for XRechnung');
}

function checkXRechnungPayment(p: Payment, add: Add): void {
  if (p.means_code === '1' && !p.iban && !p.debited_iban)
    add('payment.means_code', 'is required for XRechnung (BR-DE-1)');
  if (CARD_MEANS.has(p.means_code))
    add(
      'payment.means_code',
      'card payments (48, 54, 55) are not supported for XRechnung: no card data (BR-DE-24)',
    );
  if (TRANSFER_MEANS.has(p.means_code)) {
    for (const key of ['mandate_reference', 'creditor_id', 'debited_iban'] as const)
      if (p[key])
        add(`payment.${key}`, `must be left out with means_code ${p.means_code} on XRechnung (BR-DE-23-b)`);
  }
  if (p.means_code === '59') {
    if (!p.creditor_id) add('payment.creditor_id', 'is required with means_code 59 on XRechnung (BR-DE-30)');
    if (!p.debited_iban)
      add('payment.debited_iban', 'is required with means_code 59 on XRechnung (BR-DE-31)');
    for (const key of ['iban', 'bic'] as const)
      if (p[key]) add(`payment.${key}`, 'must be left out with means_code 59 on XRechnung (BR-DE-25-b)');
  }
  if (p.terms) checkSkonto(p.terms, add);
}

/** BR-DE-18: every line starting with `#` follows the Skonto syntax. */
function checkSkonto(terms: string, add: Add): void {
  const bad = terms
    .split(/\r?\n/)
    .find((line) => line.trim().startsWith('#') && !SKONTO_LINE.test(line.trim()));
  if (bad !== undefined)
    add('payment.terms', `line "${bad.trim()}" must follow #SKONTO#TAGE=n#PROZENT=n.nn# (BR-DE-18)`);
}
