import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Dec, formatAmount, lineGrossAmount, percentOf, roundCents } from './totals/money.js';
import { validateEInvoice } from './validate/validate.js';

/**
 * Totals against the official sample invoices: each CII sample's lines, allowances and charges are
 * mapped to our input; the service must compute exactly the sample's line amounts, VAT breakdown and
 * document totals. The sample totals are also sent as `totals`, so they pass the mismatch check too.
 */
const SAMPLES = new URL('../../tools/einvoice-validate/samples/xml/', import.meta.url);
type Json = Record<string, unknown>;

const blocks = (xml: string, tag: string): string[] =>
  [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1] ?? '');
const value = (xml: string, tag: string): string | undefined =>
  new RegExp(`<${tag}(?: [^>]*)?>([^<]*)</${tag}>`).exec(xml)?.[1]?.trim();

function vatOf(xml: string): Json {
  const category = value(xml, 'ram:CategoryCode') ?? 'S';
  const rate = value(xml, 'ram:RateApplicablePercent');
  return category === 'O' ? { category } : { category, rate: rate ?? '0' };
}

function allowanceCharge(xml: string, withPercent: boolean): { charge: boolean; item: Json } {
  const item: Json = { amount: value(xml, 'ram:ActualAmount'), reason: value(xml, 'ram:Reason') ?? 'Rabatt' };
  const percent = value(xml, 'ram:CalculationPercent');
  const base = value(xml, 'ram:BasisAmount');
  if (withPercent && percent && base) Object.assign(item, { percent, base_amount: base });
  else if (withPercent && base) item.base_amount = base;
  const tax = blocks(xml, 'ram:CategoryTradeTax')[0];
  if (tax) item.vat = vatOf(tax);
  return { charge: value(xml, 'udt:Indicator') === 'true', item };
}

interface Expected {
  lineNets: string[];
  breakdown: { category: string; rate: string; basis: string; tax: string }[];
  totals: Record<string, string>;
}

/** Maps one CII sample to an `e_invoice.invoice` and the numbers the sample states. */
function mapSample(file: string): { invoice: Json; expected: Expected } {
  const xml = readFileSync(new URL(file, SAMPLES), 'utf8');
  const lineXmls = blocks(xml, 'ram:IncludedSupplyChainTradeLineItem');
  const lines = lineXmls.map((l) => mapLine(l));
  const header = blocks(xml, 'ram:ApplicableHeaderTradeSettlement')[0] ?? '';
  const docs = blocks(header, 'ram:SpecifiedTradeAllowanceCharge').map((b) => allowanceCharge(b, true));
  const logistics = blocks(header, 'ram:SpecifiedLogisticsServiceCharge').map((b) => ({
    amount: value(b, 'ram:AppliedAmount'),
    reason: value(b, 'ram:Description') ?? 'Logistik',
    vat: vatOf(blocks(b, 'ram:AppliedTradeTax')[0] ?? ''),
  }));
  const sum = blocks(header, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation')[0] ?? '';
  const get = (tag: string) => value(sum, `ram:${tag}`) ?? '0';
  const totals = {
    line_total: get('LineTotalAmount'),
    allowance_total: get('AllowanceTotalAmount'),
    charge_total: get('ChargeTotalAmount'),
    tax_basis_total: get('TaxBasisTotalAmount'),
    tax_total: get('TaxTotalAmount'),
    grand_total: get('GrandTotalAmount'),
    prepaid: get('TotalPrepaidAmount'),
    rounding: get('RoundingAmount'),
    due_payable: get('DuePayableAmount'),
  };
  const breakdown = blocks(header, 'ram:ApplicableTradeTax').map((t) => ({
    category: value(t, 'ram:CategoryCode') ?? '',
    rate: new Dec(value(t, 'ram:RateApplicablePercent') ?? '0').toString(),
    basis: value(t, 'ram:BasisAmount') ?? '',
    tax: value(t, 'ram:CalculatedAmount') ?? '',
  }));
  const invoice = envelope({
    currency: value(header, 'ram:InvoiceCurrencyCode') ?? 'EUR',
    lines: lines.map((l) => l.input),
    allowances: docs.filter((d) => !d.charge).map((d) => d.item),
    charges: [...docs.filter((d) => d.charge).map((d) => d.item), ...logistics],
    prepaid_amount: totals.prepaid,
    rounding_amount: totals.rounding,
    totals,
  });
  return { invoice, expected: { lineNets: lines.map((l) => l.net), breakdown, totals } };
}

function mapLine(xml: string): { input: Json; net: string } {
  const price = blocks(xml, 'ram:NetPriceProductTradePrice')[0] ?? '';
  const settlement = blocks(xml, 'ram:SpecifiedLineTradeSettlement')[0] ?? '';
  const net = value(settlement, 'ram:LineTotalAmount') ?? '0';
  let quantity = new Dec(value(xml, 'ram:BilledQuantity') ?? '0');
  // SPEC-NOTES: CEN example 1 states a return as quantity 6 with line total −109.98: that is quantity −6.
  if (new Dec(net).isNegative() && quantity.isPositive()) quantity = quantity.negated();
  const parts = blocks(settlement, 'ram:SpecifiedTradeAllowanceCharge').map((b) => allowanceCharge(b, false));
  const input: Json = {
    name: value(xml, 'ram:Name') ?? 'Artikel',
    quantity: quantity.toString(),
    unit_price: value(price, 'ram:ChargeAmount'),
    vat: vatOf(blocks(settlement, 'ram:ApplicableTradeTax')[0] ?? ''),
    allowances: parts.filter((p) => !p.charge).map((p) => p.item),
    charges: parts.filter((p) => p.charge).map((p) => p.item),
  };
  const base = value(price, 'ram:BasisQuantity');
  if (base) input.price_base_quantity = base;
  return { input, net };
}

function envelope(extra: Json): Json {
  return {
    number: 'SAMPLE-1',
    issue_date: '2025-01-31',
    seller: {
      name: 'Seller',
      address: { country_code: 'DE' },
      vat_id: 'DE123456789',
      legal_registration_id: 'HRB 1',
    },
    buyer: { name: 'Buyer', address: { country_code: 'DE' } },
    payment: { due_date: '2025-02-28' },
    ...extra,
  };
}

const CII_SAMPLES = [
  'zf24_EN16931_Rabatte.xml',
  'cen_CII_example1.xml',
  'zf24_EN16931_Einfach.xml',
  'zf24_EN16931_Gutschrift.xml',
  'zf24_BASIC_Einfach.xml',
  'zf24_EXTENDED_Warenrechnung.xml',
  'zf24_XRECHNUNG_Einfach.xml',
  'kosit_01.01a-INVOICE_uncefact.xml',
  'kosit_03.03a-INVOICE_uncefact.xml',
  'kosit_ext_04.05a-INVOICE_uncefact.xml',
];

describe('totals of the official sample invoices', () => {
  for (const file of CII_SAMPLES) {
    it(`${file}: line amounts, VAT breakdown and document totals equal the sample's`, () => {
      const { invoice, expected } = mapSample(file);
      const result = validateEInvoice({ standard: 'factur-x', profile: 'extended', invoice });
      assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.error.details));
      const { lines, totals, vatBreakdown } = result.value;
      assert.deepEqual(
        lines.map((l) => formatAmount(l.net_amount)),
        expected.lineNets.map((n) => new Dec(n).toFixed(2)),
      );
      for (const [field, sent] of Object.entries(expected.totals))
        assert.equal(formatAmount(totals[field as keyof typeof totals]), new Dec(sent).toFixed(2), field);
      const ours = vatBreakdown.map((b) => ({
        category: b.category,
        rate: (b.rate ?? new Dec(0)).toString(),
        basis: formatAmount(b.taxable_amount),
        tax: formatAmount(b.tax_amount),
      }));
      const theirs = expected.breakdown.map((b) => ({
        ...b,
        basis: new Dec(b.basis).toFixed(2),
        tax: new Dec(b.tax).toFixed(2),
      }));
      const order = (x: { category: string; rate: string }) => `${x.category}|${x.rate}`;
      assert.deepEqual(
        [...ours].sort((a, b) => order(a).localeCompare(order(b))),
        [...theirs].sort((a, b) => order(a).localeCompare(order(b))),
      );
    });
  }

  it('cen_CII_example1.xml: the return line is quantity −6 × 18.33 = −109.98', () => {
    const { invoice } = mapSample('cen_CII_example1.xml');
    const result = validateEInvoice({ standard: 'factur-x', invoice });
    assert.ok(result.ok);
    const last = result.value.lines.at(-1);
    assert.equal(last?.quantity.toString(), '-6');
    assert.equal(last && formatAmount(last.net_amount), '-109.98');
    assert.equal(formatAmount(result.value.totals.line_total), '229.60');
  });

  it('zf24_EN16931_Rabatte.xml: a changed grand total is reported with field, computed and sent value', () => {
    const { invoice } = mapSample('zf24_EN16931_Rabatte.xml');
    (invoice.totals as Json).grand_total = '215.08';
    const result = validateEInvoice({ standard: 'factur-x', invoice });
    assert.ok(!result.ok);
    assert.deepEqual(result.error.details?.issues, [
      {
        path: 'e_invoice.invoice.totals.grand_total',
        message: 'grand_total does not match: computed 215.07, sent 215.08',
      },
    ]);
  });
});

describe('money arithmetic', () => {
  it('rounds half away from zero, also for negative amounts', () => {
    assert.equal(roundCents(new Dec('2.675')).toFixed(2), '2.68');
    assert.equal(roundCents(new Dec('-2.675')).toFixed(2), '-2.68');
    assert.equal(roundCents(new Dec('2.665')).toFixed(2), '2.67');
    assert.equal(percentOf(new Dec('130.70'), new Dec('2')).toFixed(2), '2.61');
    assert.equal(percentOf(new Dec('0.50'), new Dec('1')).toFixed(2), '0.01');
  });

  it('is exact where binary floats are not: 0.1 + 0.2, 1.005 × 1, 3 × 3.3333', () => {
    assert.equal(new Dec('0.1').plus('0.2').toString(), '0.3');
    assert.equal(lineGrossAmount(new Dec('1'), new Dec('1.005'), new Dec('1')).toFixed(2), '1.01');
    assert.equal(lineGrossAmount(new Dec('3'), new Dec('3.3333'), new Dec('1')).toFixed(2), '10.00');
    assert.equal(lineGrossAmount(new Dec('1000'), new Dec('4.5'), new Dec('100')).toFixed(2), '45.00');
    assert.equal(lineGrossAmount(new Dec('1'), new Dec('10'), new Dec('3')).toFixed(2), '3.33');
  });

  it('computes VAT once per category and rate, not per line', () => {
    // Three lines of 0.02 at 19 %: VAT per line would round 0.0038 to 0.00 three times (0.00);
    // once on the group's 0.06 it is 0.0114 → 0.01.
    const line = { name: 'x', quantity: 1, unit_price: '0.02', vat: { category: 'S', rate: 19 } };
    const invoice = envelope({ currency: 'EUR', lines: [line, line, line] });
    const result = validateEInvoice({ standard: 'factur-x', invoice });
    assert.ok(result.ok);
    assert.equal(formatAmount(result.value.totals.tax_total), '0.01');
    assert.equal(result.value.vatBreakdown.length, 1);
  });
});
