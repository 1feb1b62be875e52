import { describe } from 'node:test';
import {
  BASIC,
  BWL,
  c,
  check,
  checkBaseInvoiceValid,
  DELETE,
  long,
  MIN,
  type RuleCase,
  S19,
  XR,
} from '../../test/fixtures/einvoice-rule-cases.js';

/** Rules of the invoice header, the parties, the lines and the VAT categories (harness: test/fixtures). */
const INVOICE_RULES: RuleCase[] = [
  c('number is required', 'number', { number: DELETE }),
  c('number up to 200 chars', 'number', { number: long(201) }),
  c('issue_date is required', 'issue_date', { issue_date: DELETE }),
  c('issue_date is a real date', 'issue_date', { issue_date: '2025-02-30' }),
  c('issue_date is YYYY-MM-DD', 'issue_date', { issue_date: '03.03.2025' }),
  c('currency is required', 'currency', { currency: DELETE }),
  c('currency is ISO 4217', 'currency', { currency: 'EURO' }),
  c('currency is upper case ISO 4217', 'currency', { currency: 'eur' }),
  c('type_code is UNTDID 1001', 'type_code', { type_code: '999' }),
  c('XRechnung type codes', 'type_code', { type_code: '71' }, XR),
  c('text up to 1,000 chars', 'purchase_order_reference', { purchase_order_reference: long(1001) }),
  c('text must be a string', 'contract_reference', { contract_reference: 42 }),
  c('text without control characters', 'seller.name', { 'seller.name': 'Bad\u0001Name' }),
  c('preceding_invoice needs number', 'preceding_invoice.number', {
    preceding_invoice: { issue_date: '2025-01-01' },
  }),
  c('preceding_invoice date', 'preceding_invoice.issue_date', {
    preceding_invoice: { number: 'R-0', issue_date: 'x' },
  }),
  c('delivery_date is a date', 'delivery_date', { delivery_date: '2025-13-01' }),
  c('billing_period end not before start', 'billing_period.end', {
    billing_period: { start: '2025-03-01', end: '2025-02-28' },
  }),
  c('billing_period needs end', 'billing_period.end', { billing_period: { start: '2025-03-01' } }),
  c('billing_period needs start', 'billing_period.start', { billing_period: { end: '2025-03-01' } }),
  c('notes up to 5,000 chars', 'notes[1]', { notes: ['ok', long(5001)] }),
  c('notes are strings', 'notes[0]', { notes: [7] }),
  c('seller is required', 'seller', { seller: DELETE }),
  c('buyer is required', 'buyer', { buyer: DELETE }),
  c('lines are required', 'lines', { lines: DELETE }),
  c('at least one line', 'lines', { lines: [] }),
  c('at most 2,000 lines', 'lines', {
    lines: Array.from({ length: 2001 }, () => ({ name: 'x', quantity: 1, unit_price: 1, vat: S19 })),
  }),
  c('unknown invoice field', 'foo', { foo: 1 }),
  c('unknown nested field', 'lines[0].colour', { 'lines.0.colour': 'red' }),
  c('buyer has no tax_number', 'buyer.tax_number', { 'buyer.tax_number': '123/456' }),
  c('prepaid_amount has 2 decimals', 'prepaid_amount', { prepaid_amount: '1.001' }),
  c('rounding_amount is a number', 'rounding_amount', { rounding_amount: 'abc' }),
  c('prepaid_amount not in minimum', 'prepaid_amount', { prepaid_amount: '5.00' }, MIN),
  c('rounding_amount not in basic', 'rounding_amount', { rounding_amount: '0.01' }, BASIC),
  c('rounding_amount not in basic-wl', 'rounding_amount', { rounding_amount: '0.01' }, BWL),
  c('rounding_amount not in minimum', 'rounding_amount', { rounding_amount: '0.01' }, MIN),
];

const PARTY_RULES: RuleCase[] = [
  c('party name is required', 'seller.name', { 'seller.name': '  ' }),
  c('party address is required', 'buyer.address', { 'buyer.address': DELETE }),
  c('country_code is required', 'seller.address.country_code', { 'seller.address.country_code': DELETE }),
  c('country_code is ISO 3166-1 alpha-2', 'buyer.address.country_code', {
    'buyer.address.country_code': 'XX',
  }),
  c('country_code is upper case', 'buyer.address.country_code', { 'buyer.address.country_code': 'de' }),
  c('vat_id has a country prefix', 'seller.vat_id', { 'seller.vat_id': '811569869' }),
  c('id_scheme needs id', 'buyer.id', { 'buyer.id_scheme': '0088' }),
  c('id_scheme is ISO 6523', 'buyer.id_scheme', { 'buyer.id': '123', 'buyer.id_scheme': '9999' }),
  c('legal_registration_scheme is ISO 6523', 'seller.legal_registration_scheme', {
    'seller.legal_registration_scheme': 'X',
  }),
  c('electronic_address needs value', 'seller.electronic_address.value', {
    'seller.electronic_address': { scheme: 'EM' },
  }),
  c('electronic_address scheme is EAS', 'buyer.electronic_address.scheme', {
    'buyer.electronic_address.scheme': 'XX',
  }),
  c('EM address is an e-mail', 'seller.electronic_address.value', {
    'seller.electronic_address.value': 'not-mail',
  }),
  c('contact e-mail', 'seller.contact.email', { 'seller.contact.email': 'petra@' }),
  c('seller identifier (BR-CO-26)', 'seller.legal_registration_id', {
    'seller.vat_id': DELETE,
    'seller.legal_registration_id': DELETE,
    'seller.tax_number': '214/5711/0815',
  }),
  c(
    'minimum: seller id does not count (BR-CO-26)',
    'seller.legal_registration_id',
    {
      'seller.vat_id': DELETE,
      'seller.legal_registration_id': DELETE,
      'seller.id': 'S-1',
      'seller.tax_number': '214/5711/0815',
    },
    MIN,
  ),
  c('VAT needs seller vat_id or tax_number', 'seller.vat_id', { 'seller.vat_id': DELETE }),
];

const LINE_RULES: RuleCase[] = [
  c('line name required', 'lines[0].name', { 'lines.0.name': DELETE }),
  c('quantity required', 'lines[0].quantity', { 'lines.0.quantity': DELETE }),
  c('quantity up to 6 decimals', 'lines[0].quantity', { 'lines.0.quantity': '1.1234567' }),
  c('quantity is a number', 'lines[0].quantity', { 'lines.0.quantity': '1,5' }),
  c('quantity not absurd', 'lines[0].quantity', { 'lines.0.quantity': 1e16 }),
  c('unit_price required', 'lines[0].unit_price', { 'lines.0.unit_price': DELETE }),
  c('unit_price not negative', 'lines[0].unit_price', { 'lines.0.unit_price': '-1' }),
  c('unit_price up to 6 decimals', 'lines[0].unit_price', { 'lines.0.unit_price': 0.0000001 }),
  c('vat required', 'lines[0].vat', { 'lines.0.vat': DELETE }),
  c('vat category UNTDID 5305', 'lines[0].vat.category', { 'lines.0.vat.category': 'X' }),
  c('S needs rate > 0', 'lines[0].vat.rate', { 'lines.0.vat.rate': 0 }),
  c('S needs a rate', 'lines[0].vat.rate', { 'lines.0.vat': { category: 'S' } }),
  c('Z rate is 0', 'lines[0].vat.rate', { 'lines.0.vat': { category: 'Z', rate: 7 } }),
  c('E rate is 0', 'lines[0].vat.rate', {
    'lines.0.vat': { category: 'E', rate: 7 },
    tax_exemptions: { E: { reason: 'x' } },
  }),
  c('O rate is left out', 'lines[0].vat.rate', {
    'lines.0.vat': { category: 'O', rate: 19 },
    'seller.vat_id': DELETE,
  }),
  c('L needs a rate', 'lines[0].vat.rate', { 'lines.0.vat': { category: 'L' } }),
  c('M needs a rate', 'lines[0].vat.rate', { 'lines.0.vat': { category: 'M' } }),
  c('rate up to 100', 'lines[0].vat.rate', { 'lines.0.vat.rate': 119 }),
  c('unit_code UN/ECE Rec. 20', 'lines[0].unit_code', { 'lines.0.unit_code': 'PIECE' }),
  c('price_base_quantity > 0', 'lines[0].price_base_quantity', { 'lines.0.price_base_quantity': 0 }),
  c('description up to 5,000', 'lines[0].description', { 'lines.0.description': long(5001) }),
  c('note up to 5,000', 'lines[0].note', { 'lines.0.note': long(5001) }),
  c('standard_item_scheme with id', 'lines[0].standard_item_scheme', {
    'lines.0.standard_item_id': '4012345001235',
  }),
  c('standard_item_id with scheme', 'lines[0].standard_item_id', { 'lines.0.standard_item_scheme': '0160' }),
  c('line period end not before start', 'lines[0].period.end', {
    'lines.0.period': { start: '2025-02-02', end: '2025-02-01' },
  }),
  c('line period start or end', 'lines[0].period.start', { 'lines.0.period': {} }),
  c('line allowance amount or percent', 'lines[0].allowances[0].amount', {
    'lines.0.allowances': [{ reason: 'x' }],
  }),
  c('line allowance amount 2 decimals', 'lines[0].allowances[0].amount', {
    'lines.0.allowances': [{ amount: '1.001', reason: 'x' }],
  }),
  c('line allowance amount and percent agree', 'lines[0].allowances[0].amount', {
    'lines.0.allowances': [{ amount: '3.00', percent: 10, reason: 'x' }],
  }),
  c('line allowance reason or code', 'lines[0].allowances[0].reason', {
    'lines.0.allowances': [{ amount: 1 }],
  }),
  c('line allowance code UNTDID 5189', 'lines[0].allowances[0].reason_code', {
    'lines.0.allowances': [{ amount: 1, reason_code: 'FC' }],
  }),
  c('line charge code UNTDID 7161', 'lines[0].charges[0].reason_code', {
    'lines.0.charges': [{ amount: 1, reason_code: '95' }],
  }),
  c('line charge reason or code', 'lines[0].charges[0].reason', { 'lines.0.charges': [{ percent: 5 }] }),
];

const VAT_RULES: RuleCase[] = [
  c('O not mixable', 'lines[1].vat.category', {
    'lines.1': { name: 'y', quantity: 1, unit_price: 1, vat: { category: 'O' } },
  }),
  c('K needs buyer vat_id', 'buyer.vat_id', {
    'lines.0.vat': { category: 'K' },
    delivery_date: '2025-03-01',
    delivery: { address: { country_code: 'FR' } },
  }),
  c('K needs delivery date or period', 'delivery_date', {
    'lines.0.vat': { category: 'K' },
    'buyer.vat_id': 'FR40303265045',
    delivery: { address: { country_code: 'FR' } },
  }),
  c('K needs delivery country', 'delivery.address.country_code', {
    'lines.0.vat': { category: 'K' },
    'buyer.vat_id': 'FR40303265045',
    delivery_date: '2025-03-01',
  }),
  c('K needs seller vat_id (BR-IC-02)', 'seller.vat_id', {
    'lines.0.vat': { category: 'K' },
    'buyer.vat_id': 'FR40303265045',
    delivery_date: '2025-03-01',
    delivery: { address: { country_code: 'FR' } },
    'seller.vat_id': DELETE,
    'seller.tax_number': '214/5711/0815',
  }),
  c('G needs seller vat_id (BR-G-02)', 'seller.vat_id', {
    'lines.0.vat': { category: 'G' },
    'seller.vat_id': DELETE,
    'seller.tax_number': '1/2/3',
  }),
  c('AE needs buyer vat_id or legal id', 'buyer.vat_id', { 'lines.0.vat': { category: 'AE', rate: 0 } }),
  c('O: no seller vat_id (BR-O-02)', 'seller.vat_id', { 'lines.0.vat': { category: 'O' } }),
  c('O: no buyer vat_id (BR-O-02)', 'buyer.vat_id', {
    'lines.0.vat': { category: 'O' },
    'seller.vat_id': DELETE,
    'buyer.vat_id': 'DE123456789',
  }),
  c('E needs an exemption reason or code', 'tax_exemptions.E', { 'lines.0.vat': { category: 'E', rate: 0 } }),
  c('E exemption entry empty', 'tax_exemptions.E', {
    'lines.0.vat': { category: 'E' },
    tax_exemptions: { E: {} },
  }),
  c('S exemption entry is an error', 'tax_exemptions.S', { tax_exemptions: { S: { reason: 'x' } } }),
  c('Z exemption entry is an error', 'tax_exemptions.Z', { tax_exemptions: { Z: { reason: 'x' } } }),
  c('L exemption entry is an error', 'tax_exemptions.L', { tax_exemptions: { L: { reason: 'x' } } }),
  c('M exemption entry is an error', 'tax_exemptions.M', { tax_exemptions: { M: { reason: 'x' } } }),
  c('exemption key is a category', 'tax_exemptions.Q', { tax_exemptions: { Q: { reason: 'x' } } }),
  c('exemption code is VATEX', 'tax_exemptions.AE.code', { tax_exemptions: { AE: { code: 'VATEX-XX' } } }),
];

checkBaseInvoiceValid();
describe('invoice rules', () => check(INVOICE_RULES));
describe('party rules', () => check(PARTY_RULES));
describe('line rules', () => check(LINE_RULES));
describe('VAT category rules', () => check(VAT_RULES));
