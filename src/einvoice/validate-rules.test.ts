import { describe } from 'node:test';
import { BWL, c, check, DELETE, long, type RuleCase, XR } from '../../test/fixtures/einvoice-rule-cases.js';

/** Rules of payment, document-level allowances and charges, XRechnung and sent totals (harness: test/fixtures). */
const PAYMENT_RULES: RuleCase[] = [
  c('IBAN check digits', 'payment.iban', { 'payment.iban': 'DE76512108001245126199' }),
  c('IBAN format', 'payment.iban', { 'payment.iban': 'DE75-5121' }),
  c('debited IBAN check digits', 'payment.debited_iban', {
    'payment.debited_iban': 'DE03100500000054540402',
  }),
  c('BIC 8 or 11', 'payment.bic', { 'payment.bic': 'SOGEDEFFX' }),
  c('means_code UNTDID 4461', 'payment.means_code', { 'payment.means_code': '99' }),
  c('58 needs an iban', 'payment.iban', { payment: { means_code: '58', due_date: '2025-03-17' } }),
  c('30 needs an iban', 'payment.iban', { payment: { means_code: '30', due_date: '2025-03-17' } }),
  c('59 needs a mandate_reference', 'payment.mandate_reference', {
    payment: { means_code: '59', due_date: '2025-03-17' },
  }),
  c('due_date not before issue_date', 'payment.due_date', { 'payment.due_date': '2025-03-02' }),
  c('due_date is a date', 'payment.due_date', { 'payment.due_date': 'soon' }),
  c('reference up to 140', 'payment.reference', { 'payment.reference': long(141) }),
  c('amount due needs due_date or terms (basic-wl)', 'payment.due_date', { 'payment.due_date': DELETE }, BWL),
  c('amount due needs due_date or terms (en16931)', 'payment.due_date', { payment: DELETE }),
];

const DOC_RULES: RuleCase[] = [
  c('allowance amount or percent', 'allowances[0].amount', { allowances: [{ reason: 'x' }] }),
  c('allowance percent and amount agree', 'allowances[0].amount', {
    allowances: [{ amount: '1.00', percent: 10, reason: 'x' }],
  }),
  c('allowance percent of base agrees', 'allowances[0].amount', {
    allowances: [{ amount: '1.00', percent: 10, base_amount: 100, reason: 'x' }],
  }),
  c('allowance amount 2 decimals', 'allowances[0].amount', {
    allowances: [{ amount: '0.001', reason: 'x' }],
  }),
  c('allowance base 2 decimals', 'allowances[0].base_amount', {
    allowances: [{ percent: 1, base_amount: '1.001', reason: 'x' }],
  }),
  c('allowance reason or code', 'allowances[0].reason', { allowances: [{ amount: 1 }] }),
  c('allowance reason code 5189', 'allowances[0].reason_code', {
    allowances: [{ amount: 1, reason_code: 'ZZZZ' }],
  }),
  c('charge reason code 7161', 'charges[0].reason_code', { charges: [{ amount: 1, reason_code: '95' }] }),
  c('vat required with several rates', 'allowances[0].vat', {
    'lines.1': { name: 'y', quantity: 1, unit_price: 1, vat: { category: 'S', rate: 7 } },
    allowances: [{ amount: 1, reason: 'x' }],
  }),
  c('charge vat rules', 'charges[0].vat.rate', {
    charges: [{ amount: 1, reason: 'x', vat: { category: 'S', rate: 0 } }],
  }),
];

const XRECHNUNG_RULES: RuleCase[] = [
  c('buyer_reference', 'buyer_reference', { buyer_reference: DELETE }, XR),
  c('seller contact name', 'seller.contact.name', { 'seller.contact.name': DELETE }, XR),
  c('seller contact phone', 'seller.contact.phone', { 'seller.contact.phone': DELETE }, XR),
  c('seller phone three digits', 'seller.contact.phone', { 'seller.contact.phone': '+4 9' }, XR),
  c('seller contact email', 'seller.contact.email', { 'seller.contact.email': DELETE }, XR),
  c('seller city', 'seller.address.city', { 'seller.address.city': DELETE }, XR),
  c('seller postal_code', 'seller.address.postal_code', { 'seller.address.postal_code': DELETE }, XR),
  c('buyer city', 'buyer.address.city', { 'buyer.address.city': DELETE }, XR),
  c('buyer postal_code', 'buyer.address.postal_code', { 'buyer.address.postal_code': DELETE }, XR),
  c('seller electronic_address', 'seller.electronic_address', { 'seller.electronic_address': DELETE }, XR),
  c('buyer electronic_address', 'buyer.electronic_address', { 'buyer.electronic_address': DELETE }, XR),
  c('payment', 'payment', { payment: DELETE, 'seller.contact.phone': '+49 1' }, XR),
  c('payment means_code', 'payment.means_code', { payment: { due_date: '2025-03-17' } }, XR),
  c('transfer needs iban', 'payment.iban', { payment: { means_code: '58', due_date: '2025-03-17' } }, XR),
  c(
    'seller vat_id or tax_number',
    'seller.vat_id',
    { 'seller.vat_id': DELETE, 'lines.0.vat': { category: 'O' } },
    XR,
  ),
  c(
    'delivery address city (BR-DE-10)',
    'delivery.address.city',
    { delivery: { address: { postal_code: '1', country_code: 'DE' } } },
    XR,
  ),
  c(
    'delivery address postal_code (BR-DE-11)',
    'delivery.address.postal_code',
    { delivery: { address: { city: 'X', country_code: 'DE' } } },
    XR,
  ),
  c(
    '59 needs creditor_id (BR-DE-30)',
    'payment.creditor_id',
    { payment: { debited_iban: 'DE02100500000054540402', mandate_reference: 'M1', due_date: '2025-03-17' } },
    XR,
  ),
  c(
    '59 needs debited_iban (BR-DE-31)',
    'payment.debited_iban',
    {
      payment: {
        means_code: '59',
        mandate_reference: 'M1',
        creditor_id: 'DE98ZZZ09999999999',
        due_date: '2025-03-17',
      },
    },
    XR,
  ),
  c(
    '59 without payee iban (BR-DE-25-b)',
    'payment.iban',
    {
      payment: {
        means_code: '59',
        iban: 'DE75512108001245126199',
        debited_iban: 'DE02100500000054540402',
        mandate_reference: 'M1',
        creditor_id: 'DE98ZZZ09999999999',
        due_date: '2025-03-17',
      },
    },
    XR,
  ),
  c(
    '58 without mandate (BR-DE-23-b)',
    'payment.mandate_reference',
    { 'payment.mandate_reference': 'M1' },
    XR,
  ),
  c(
    'no card payments (BR-DE-24)',
    'payment.means_code',
    { payment: { means_code: '48', due_date: '2025-03-17' } },
    XR,
  ),
  c('Skonto syntax (BR-DE-18)', 'payment.terms', { 'payment.terms': '#SKONTO#TAGE=10#PROZENT=2#' }, XR),
];

const TOTALS_RULES: RuleCase[] = [
  c('line_total must match', 'totals.line_total', { totals: { line_total: '20.01' } }),
  c('tax_total must match', 'totals.tax_total', { totals: { tax_total: 3.81 } }),
  c('due_payable must match', 'totals.due_payable', { totals: { due_payable: '0' } }),
  c('unknown totals field', 'totals.net', { totals: { net: 1 } }),
];

describe('payment rules', () => check(PAYMENT_RULES));
describe('document allowance/charge rules', () => check(DOC_RULES));
describe('XRechnung rules', () => check(XRECHNUNG_RULES));
describe('sent totals', () => check(TOTALS_RULES));
