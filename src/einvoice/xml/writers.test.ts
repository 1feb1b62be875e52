import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import type { Line, PreparedEInvoice } from '../model.js';
import { buildCii } from './cii.js';
import { paymentGroups } from './payment-groups.js';
import { buildUbl } from './ubl.js';
import { clean } from './xml-text.js';

const d = (v: string) => new Decimal(v);

/** An invoice of one category-O line: the only category whose rate is left out (BR-O-05). */
function notSubject(typeCode = '380'): PreparedEInvoice {
  const line: Line = {
    id: '1',
    name: 'Talk <keynote> & Q&A',
    quantity: d('1'),
    unit_price: d('100'),
    unit_code: 'C62',
    price_base_quantity: d('1'),
    vat: { category: 'O', rate: null },
    allowances: [],
    charges: [],
    gross_amount: d('100'),
    net_amount: d('100'),
  };
  const zero = d('0');
  const invoice = {
    number: 'A-1',
    issue_date: '2025-06-05',
    currency: 'EUR',
    type_code: typeCode,
    notes: ['bell\u0007 gone'],
    seller: { name: 'S', address: { country_code: 'DE' }, legal_registration_id: 'HRB 1' },
    buyer: { name: 'B', address: { country_code: 'DE' } },
    payment: { means_code: '58', iban: 'DE02120300000000202051', reference: 'A-1', mandate_reference: 'M-1' },
    lines: [line],
    allowances: [],
    charges: [],
    prepaid_amount: zero,
    rounding_amount: zero,
    tax_exemptions: { O: { reason: 'Not subject to VAT', code: 'VATEX-EU-O' } },
  };
  const totals = {
    line_total: d('100'),
    allowance_total: zero,
    charge_total: zero,
    tax_basis_total: d('100'),
    tax_total: zero,
    grand_total: d('100'),
    prepaid: zero,
    rounding: zero,
    due_payable: d('100'),
  };
  const vatBreakdown = [
    {
      category: 'O' as const,
      rate: null,
      taxable_amount: d('100'),
      tax_amount: zero,
      exemption_code: 'VATEX-EU-O',
    },
  ];
  return {
    standard: 'factur-x',
    profile: 'en16931',
    invoice,
    totals,
    vatBreakdown,
    lines: [line],
    docAllowances: [],
    docCharges: [],
  };
}

describe('XML writers', () => {
  it('states rate 0 for category O only in the XRechnung VAT breakdown (BR-DE-14 vs BR-O-05)', () => {
    const p = notSubject();
    assert.doesNotMatch(buildCii(p, 'en16931'), /RateApplicablePercent/);
    const xr = buildCii(p, 'xrechnung');
    assert.equal(xr.match(/<ram:RateApplicablePercent>0<\/ram:RateApplicablePercent>/g)?.length, 1);
    assert.match(buildUbl(p), /<cac:TaxSubtotal>[\s\S]*<cbc:Percent>0<\/cbc:Percent>/);
  });

  it('escapes markup and drops characters XML cannot carry', () => {
    const xml = buildCii(notSubject(), 'en16931');
    assert.match(xml, /Talk &lt;keynote&gt; &amp; Q&amp;A/);
    assert.match(xml, /<ram:Content>bell gone<\/ram:Content>/);
    assert.equal(clean('a\u0000b\uD800c\uD83D\uDE00'), 'abc\uD83D\uDE00');
  });

  it('keeps text that looks like an entity as written (the XML reads back what the PDF shows)', () => {
    const p = notSubject();
    p.invoice.notes = ['R&amp;D &#x41; "quoted"'];
    const xml = buildCii(p, 'en16931');
    assert.match(xml, /<ram:Content>R&amp;amp;D &amp;#x41; "quoted"<\/ram:Content>/);
    assert.match(buildUbl(p), /<cbc:Note>R&amp;amp;D &amp;#x41; "quoted"<\/cbc:Note>/);
  });

  it('writes MINIMUM without notes, lines or payment and BASIC WL without lines', () => {
    const p = notSubject();
    const min = buildCii(p, 'minimum');
    for (const el of [
      'IncludedNote',
      'IncludedSupplyChainTradeLineItem',
      'PaymentMeans',
      'LineTotalAmount',
    ]) {
      assert.doesNotMatch(min, new RegExp(el), el);
    }
    const wl = buildCii(p, 'basic-wl');
    assert.doesNotMatch(wl, /IncludedSupplyChainTradeLineItem/);
    assert.match(wl, /<ram:TypeCode>58<\/ram:TypeCode>/);
  });

  it('keeps a mandate out of a credit transfer and uses CreditNote for type 381', () => {
    const p = notSubject('381');
    assert.deepEqual(paymentGroups(p.invoice.payment!), { creditTransfer: true, directDebit: false });
    assert.doesNotMatch(buildCii(p, 'en16931'), /DirectDebitMandateID/);
    const ubl = buildUbl(p);
    assert.match(ubl, /^<\?xml[^>]*>\s*<ubl:CreditNote /);
    assert.doesNotMatch(ubl, /PaymentMandate/);
  });
});
