import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseReceived } from '../../einvoice-inbound/parse.js';
import { validateReceived } from '../../einvoice-inbound/validate.js';
import type { PreparedEInvoice } from '../model.js';
import { validateEInvoice } from '../validate/validate.js';
import { KSEF_FIXTURES } from './fixtures.js';
import { isNip, markerOf } from './rates.js';
import { buildKsef } from './write.js';

type Json = Record<string, unknown>;

function prepare(invoice: unknown): PreparedEInvoice {
  const result = validateEInvoice({ standard: 'ksef', invoice });
  if (!result.ok) throw new Error(JSON.stringify(result.error.details));
  return result.value;
}

function issuesOf(invoice: unknown, standard = 'ksef'): { path: string; message: string }[] {
  const result = validateEInvoice({ standard, invoice });
  assert.equal(result.ok, false, 'expected invalid_e_invoice');
  if (result.ok) return [];
  assert.equal(result.error.code, 'invalid_e_invoice');
  return (result.error.details as { issues: { path: string; message: string }[] }).issues;
}

const base = KSEF_FIXTURES[0]?.invoice as Json;
const withFields = (extra: Json): Json => ({ ...base, ...extra });
const element = (xml: string, name: string): string[] =>
  [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => m[1] ?? '');

describe('KSeF FA(3): mapping', () => {
  it('Polish rates and markers follow the VAT category', () => {
    const m = (category: string, rate: string | null, polish = true) =>
      markerOf({ category, rate: rate === null ? null : { toString: () => rate } } as never, polish);
    assert.equal(m('S', '23'), '23');
    assert.equal(m('S', '8'), '8');
    assert.equal(m('S', '5'), '5');
    assert.equal(m('Z', '0'), '0 KR');
    assert.equal(m('K', '0'), '0 WDT');
    assert.equal(m('G', '0'), '0 EX');
    assert.equal(m('E', '0'), 'zw');
    assert.equal(m('O', null), 'np I');
    assert.equal(m('AE', '0', true), 'oo');
    assert.equal(m('AE', '0', false), 'np II');
    assert.match((m('S', '19') as { problem: string }).problem, /not a Polish VAT rate/);
  });

  it('NIP check digit', () => {
    assert.equal(isNip('5265877635'), true);
    assert.equal(isNip('5265877636'), false);
    assert.equal(isNip('0265877635'), false);
  });

  it('writes the groups, the annotations and the lines of a PLN invoice', () => {
    const xml = buildKsef(prepare(base));
    assert.deepEqual(element(xml, 'P_12'), ['23', '5', '8', '0 KR', 'zw']);
    assert.deepEqual(element(xml, 'P_13_1'), ['1500.00']);
    assert.deepEqual(element(xml, 'P_14_1'), ['345.00']);
    assert.deepEqual(element(xml, 'P_13_6_1'), ['300.00']);
    assert.deepEqual(element(xml, 'P_13_7'), ['800.00']);
    assert.deepEqual(element(xml, 'P_19A'), ['art. 43 ust. 1 pkt 29 lit. c ustawy o VAT']);
    assert.deepEqual(element(xml, 'P_18A'), ['1']);
    assert.deepEqual(element(xml, 'P_18'), ['2']);
    assert.deepEqual(element(xml, 'RodzajFaktury'), ['VAT']);
    assert.deepEqual(element(xml, 'NrRB'), ['PL61109010140000071219812874']);
    assert.deepEqual(element(xml, 'Termin'), ['2026-03-17']);
    assert.deepEqual(element(xml, 'NIP'), ['5265877635', '3861610227']);
  });

  it('a foreign currency states the VAT in PLN with the exchange rate', () => {
    const xml = buildKsef(prepare(KSEF_FIXTURES[2]?.invoice));
    assert.deepEqual(element(xml, 'KodWaluty'), ['EUR']);
    assert.deepEqual(element(xml, 'P_14_1'), ['46.00']);
    assert.deepEqual(element(xml, 'P_14_1W'), ['198.03']);
    assert.deepEqual(element(xml, 'KursWaluty'), ['4.305']);
  });

  it('buyer by EU VAT id, other id and none; reverse charge marks P_18', () => {
    const eu = buildKsef(prepare(KSEF_FIXTURES[1]?.invoice));
    assert.deepEqual(
      [element(eu, 'KodUE'), element(eu, 'NrVatUE'), element(eu, 'P_18')],
      [['DE'], ['811569869'], ['1']],
    );
    const other = buildKsef(prepare(KSEF_FIXTURES[4]?.invoice));
    assert.deepEqual(element(other, 'NrID'), ['CHE-123.456.788']);
    assert.deepEqual(element(buildKsef(prepare(KSEF_FIXTURES[5]?.invoice)), 'BrakID'), ['1']);
    assert.deepEqual(element(buildKsef(prepare(KSEF_FIXTURES[3]?.invoice)), 'P_12'), ['oo']);
  });

  it('a credit note is a KOR with negative amounts naming the corrected invoice', () => {
    const xml = buildKsef(prepare(KSEF_FIXTURES[6]?.invoice));
    assert.deepEqual(element(xml, 'RodzajFaktury'), ['KOR']);
    assert.deepEqual(element(xml, 'P_15'), ['-369.00']);
    assert.deepEqual(element(xml, 'P_8B'), ['-2']);
    assert.deepEqual(element(xml, 'NrFaKorygowanej'), ['FV/2026/03/001']);
    assert.deepEqual(element(xml, 'NrKSeFFaKorygowanej'), ['5265877635-20260303-0A1B2C3D4E5F-7A']);
    const outside = buildKsef(prepare(KSEF_FIXTURES[7]?.invoice));
    assert.deepEqual([element(outside, 'NrKSeFN'), element(outside, 'P_15')], [['1'], ['54.00']]);
  });
});

describe('KSeF FA(3): invalid_e_invoice with paths', () => {
  const paths = (invoice: unknown) => issuesOf(invoice).map((i) => i.path);

  it('a seller without a NIP', () => {
    const seller = { ...(base.seller as Json), vat_id: undefined };
    assert.ok(paths(withFields({ seller })).includes('e_invoice.invoice.seller.vat_id'));
  });

  it('a NIP with a wrong check digit', () => {
    const buyer = { ...(base.buyer as Json), vat_id: 'PL3861610228' };
    assert.ok(paths(withFields({ buyer })).includes('e_invoice.invoice.buyer.vat_id'));
  });

  it('a rate Poland does not have, a currency without its rate, a correction without its invoice', () => {
    const lines = [{ name: 'x', quantity: 1, unit_price: 10, vat: { category: 'S', rate: 19 } }];
    assert.ok(paths(withFields({ lines })).includes('e_invoice.invoice.lines[0].vat'));
    assert.ok(
      paths(withFields({ currency: 'EUR', ksef: undefined })).includes(
        'e_invoice.invoice.ksef.exchange_rate',
      ),
    );
    assert.ok(paths(withFields({ type_code: '381' })).includes('e_invoice.invoice.preceding_invoice'));
    assert.ok(paths(withFields({ type_code: '386' })).includes('e_invoice.invoice.type_code'));
  });

  it('invoice.ksef is for standard ksef only, and is itself checked', () => {
    const fx = issuesOf(
      withFields({ seller: { ...(base.seller as Json), vat_id: 'DE811569869' } }),
      'en16931-ubl',
    );
    assert.ok(fx.some((i) => i.path === 'e_invoice.invoice.ksef'));
    const bad = paths(withFields({ ksef: { split_payment: 'yes', correction_type: 4, colour: 'red' } }));
    for (const p of ['split_payment', 'correction_type', 'colour'])
      assert.ok(bad.includes(`e_invoice.invoice.ksef.${p}`), p);
  });
});

describe('KSeF FA(3): schema and round trip', () => {
  for (const fixture of KSEF_FIXTURES) {
    it(`${fixture.name}: XSD-valid, parse(generate(model)) equals the model`, async () => {
      const original = prepare(fixture.invoice);
      const xml = buildKsef(original);
      const report = await validateReceived(Buffer.from(xml));
      assert.deepEqual(report.errors, []);
      assert.equal(report.valid, true);
      assert.equal(report.standard, 'ksef');
      const parsed = await parseReceived(Buffer.from(xml));
      assert.deepEqual([parsed.standard, parsed.profile, parsed.warnings], ['ksef', 'fa3', []]);
      const again = prepare(parsed.invoice);
      assert.deepEqual(
        JSON.parse(JSON.stringify(again.invoice)),
        JSON.parse(JSON.stringify(original.invoice)),
      );
      assert.equal(parsed.totals.grand_total, original.totals.grand_total.toFixed(2));
    });
  }
});
