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
 * The German rules as two rule sets state them: KoSIT's XRechnung CIUS (BR-DE-*) for every XRechnung, and
 * OpenPeppol's copy of them (DE-R-*) for a Peppol BIS invoice between a German seller and a German buyer.
 */
export interface GermanRules {
  /** Who requires it, as the messages say: "is required for XRechnung". */
  name: string;
  /** The rule id for a BR-DE number (`5`, `23-b`, …). */
  id(brDe: string): string;
  /** XRechnung only: BR-DE-17's type codes and the electronic addresses (Peppol checks its own). */
  xrechnung: boolean;
}

export const XRECHNUNG_RULES: GermanRules = { name: 'XRechnung', id: (n) => `BR-DE-${n}`, xrechnung: true };

/** OpenPeppol numbers the same checks DE-R-001…; BR-DE-x-b (what must be left out) is DE-R-x-2. */
const PEPPOL_DE_IDS: Record<string, string> = { '23-b': '023-2', '24': '024-1', '25-b': '025-2' };
export const PEPPOL_GERMAN_RULES: GermanRules = {
  name: 'Peppol BIS between German parties',
  id: (n) => `DE-R-${PEPPOL_DE_IDS[n] ?? n.padStart(3, '0')}`,
  xrechnung: false,
};

/**
 * SPEC "XRechnung additionally requires", plus BR-DE-10/11 (delivery address), BR-DE-18 (Skonto
 * syntax), BR-DE-23/24/25/30/31 (payment groups) from SPEC-NOTES. Every missing item is listed.
 */
export function checkXRechnung(
  invoice: Invoice,
  base: string,
  issues: Issues,
  rules: GermanRules = XRECHNUNG_RULES,
): void {
  const add = (path: string, message: string) => issues.addOnce(`${base}.${path}`, message);
  const on = rules.name;
  const required = (n: string, extra = '') => `is required for ${on} (${extra}${rules.id(n)})`;
  if (rules.xrechnung && !XRECHNUNG_TYPES.has(invoice.type_code))
    add('type_code', `must be one of ${[...XRECHNUNG_TYPES].join(', ')} for XRechnung`);
  if (!invoice.buyer_reference) add('buyer_reference', required('15', rules.xrechnung ? 'Leitweg-ID, ' : ''));
  const { seller, buyer } = invoice;
  if (!issues.hasExactly(`${base}.seller`)) {
    if (!seller.contact?.name) add('seller.contact.name', required('5'));
    if (!seller.contact?.phone) add('seller.contact.phone', required('6'));
    else if ((seller.contact.phone.match(/[0-9]/g) ?? []).length < 3)
      add('seller.contact.phone', `must contain at least three digits (${rules.id('27')})`);
    if (!seller.contact?.email) add('seller.contact.email', required('7'));
    if (rules.xrechnung && !seller.electronic_address)
      add('seller.electronic_address', 'is required for XRechnung');
    if (!seller.vat_id && !seller.tax_number && needsSellerTaxId(invoice, rules))
      add(
        'seller.vat_id',
        `vat_id or tax_number is required for ${on}${rules.xrechnung ? '' : ` (${rules.id('16')})`}`,
      );
    cityAndPostcode(seller.address, 'seller.address', add, on);
  }
  if (!issues.hasExactly(`${base}.buyer`)) {
    if (rules.xrechnung && !buyer.electronic_address)
      add('buyer.electronic_address', 'is required for XRechnung');
    cityAndPostcode(buyer.address, 'buyer.address', add, on);
  }
  if (invoice.delivery?.address) cityAndPostcode(invoice.delivery.address, 'delivery.address', add, on);
  if (!invoice.payment) add('payment', `is required for ${on}, with at least means_code (${rules.id('1')})`);
  else checkXRechnungPayment(invoice.payment, add, rules);
}

/** DE-R-016 asks for the seller's tax id only when a VAT category other than O is used; XRechnung always. */
function needsSellerTaxId(invoice: Invoice, rules: GermanRules): boolean {
  if (rules.xrechnung) return true;
  const categories = [
    ...invoice.lines.map((l) => l.vat.category),
    ...invoice.allowances.map((a) => a.vat.category),
    ...invoice.charges.map((c) => c.vat.category),
  ];
  return categories.some((c) => c !== 'O');
}

type Add = (path: string, message: string) => void;

function cityAndPostcode(address: Address, path: string, add: Add, on: string): void {
  if (!address.city) add(`${path}.city`, `is required for ${on}`);
  if (!address.postal_code) add(`${path}.postal_code`, `is required for ${on}`);
}

function checkXRechnungPayment(p: Payment, add: Add, rules: GermanRules): void {
  const on = rules.xrechnung ? 'XRechnung' : rules.name;
  if (p.means_code === '1' && !p.iban && !p.debited_iban)
    add('payment.means_code', `is required for ${on} (${rules.id('1')})`);
  if (CARD_MEANS.has(p.means_code))
    add(
      'payment.means_code',
      `card payments (48, 54, 55) are not supported for ${on}: no card data (${rules.id('24')})`,
    );
  if (TRANSFER_MEANS.has(p.means_code)) {
    for (const key of ['mandate_reference', 'creditor_id', 'debited_iban'] as const)
      if (p[key])
        add(
          `payment.${key}`,
          `must be left out with means_code ${p.means_code} on ${on} (${rules.id('23-b')})`,
        );
  }
  if (p.means_code === '59') {
    if (!p.creditor_id)
      add('payment.creditor_id', `is required with means_code 59 on ${on} (${rules.id('30')})`);
    if (!p.debited_iban)
      add('payment.debited_iban', `is required with means_code 59 on ${on} (${rules.id('31')})`);
    for (const key of ['iban', 'bic'] as const)
      if (p[key]) add(`payment.${key}`, `must be left out with means_code 59 on ${on} (${rules.id('25-b')})`);
  }
  if (p.terms) checkSkonto(p.terms, add, rules);
}

/** BR-DE-18: every line starting with `#` follows the Skonto syntax. */
function checkSkonto(terms: string, add: Add, rules: GermanRules): void {
  const bad = terms
    .split(/\r?\n/)
    .find((line) => line.trim().startsWith('#') && !SKONTO_LINE.test(line.trim()));
  if (bad !== undefined)
    add('payment.terms', `line "${bad.trim()}" must follow #SKONTO#TAGE=n#PROZENT=n.nn# (${rules.id('18')})`);
}
