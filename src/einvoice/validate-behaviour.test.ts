import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EINVOICE_FIXTURES, fixtureTargets } from '../../test/fixtures/einvoice-fixtures.js';
import { formatAmount } from './totals/money.js';
import { validateEInvoice } from './validate/validate.js';

/** Envelope errors, defaults, normalisation and the shape of the error (SPEC "E-invoices"). */
type Json = Record<string, unknown>;

function fixture(name: string): Json {
  const found = EINVOICE_FIXTURES.find((f) => f.name === name);
  assert.ok(found, name);
  return structuredClone(found.invoice);
}

function prepared(input: unknown) {
  const result = validateEInvoice(input);
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.error.details));
  return result.value;
}

function failure(input: unknown) {
  const result = validateEInvoice(input);
  assert.ok(!result.ok, 'expected a rejection');
  return result.error;
}

const invoice = () => fixture('self-billed-389');

describe('standard, profile and invoice', () => {
  it('an unknown standard, unknown profile, missing standard or missing invoice is invalid_request', () => {
    const cases: [unknown, string][] = [
      [{ standard: 'ebinterface', invoice: invoice() }, 'e_invoice.standard'],
      [{ invoice: invoice() }, 'e_invoice.standard'],
      [{ standard: 'factur-x', profile: 'comfort', invoice: invoice() }, 'e_invoice.profile'],
      [{ standard: 'factur-x' }, 'e_invoice.invoice'],
      [{ standard: 'factur-x', invoice: null }, 'e_invoice.invoice'],
      ['factur-x', 'e_invoice'],
    ];
    for (const [input, field] of cases) {
      const error = failure(input);
      assert.equal(error.code, 'invalid_request', JSON.stringify(input).slice(0, 80));
      assert.equal(error.details?.field, field);
    }
  });

  it('a known profile the standard does not offer is invalid_e_invoice at e_invoice.profile', () => {
    for (const [standard, profile] of [
      ['factur-x', 'xrechnung'],
      ['xrechnung-cii', 'en16931'],
      ['xrechnung-ubl', 'minimum'],
    ]) {
      const error = failure({ standard, profile, invoice: invoice() });
      assert.equal(error.code, 'invalid_e_invoice');
      assert.deepEqual(
        ((error.details?.issues ?? []) as { path: string }[]).map((i) => i.path),
        ['e_invoice.profile'],
      );
    }
  });

  it('unknown fields inside e_invoice are invalid_e_invoice issues', () => {
    const error = failure({ standard: 'factur-x', invoice: invoice(), lang: 'de' });
    assert.equal(error.code, 'invalid_e_invoice');
    assert.deepEqual(error.details?.issues, [{ path: 'e_invoice.lang', message: 'is not a known field' }]);
  });

  it('an invoice that is not an object is invalid_e_invoice', () => {
    const error = failure({ standard: 'zugferd', invoice: [1] });
    assert.equal(error.code, 'invalid_e_invoice');
    assert.deepEqual(error.details?.issues, [{ path: 'e_invoice.invoice', message: 'must be an object' }]);
  });

  it('profiles default to en16931 (factur-x, zugferd) and xrechnung (xrechnung-cii/-ubl)', () => {
    assert.equal(prepared({ standard: 'factur-x', invoice: invoice() }).profile, 'en16931');
    assert.equal(prepared({ standard: 'zugferd', invoice: invoice() }).profile, 'en16931');
    assert.equal(prepared({ standard: 'xrechnung-cii', invoice: invoice() }).profile, 'xrechnung');
    assert.equal(prepared({ standard: 'xrechnung-ubl', invoice: invoice() }).profile, 'xrechnung');
  });
});

describe('error shape', () => {
  it('collects every issue, lists at most 50 and counts the rest in more_issues', () => {
    const inv = invoice();
    inv.lines = Array.from({ length: 60 }, () => ({
      name: 'x',
      quantity: 'many',
      unit_price: 1,
      vat: { rate: 19 },
    }));
    const error = failure({ standard: 'factur-x', invoice: inv });
    assert.equal(error.code, 'invalid_e_invoice');
    assert.equal(error.status, 400);
    assert.equal(error.message, 'The e-invoice is invalid: 60 issues');
    const issues = error.details?.issues as { path: string; message: string }[];
    assert.equal(issues.length, 50);
    assert.equal(error.details?.more_issues, 10);
    assert.deepEqual(issues[49], {
      path: 'e_invoice.invoice.lines[49].quantity',
      message: 'must be a number or a decimal string',
    });
  });

  it('lists all of XRechnung’s missing items at once', () => {
    const inv = invoice();
    delete inv.buyer_reference;
    delete inv.payment;
    inv.seller = { name: 'S', address: { country_code: 'DE' }, vat_id: 'DE811569869' };
    inv.buyer = { name: 'B', address: { country_code: 'DE' } };
    const error = failure({ standard: 'xrechnung-ubl', invoice: inv });
    const paths = ((error.details?.issues ?? []) as { path: string }[]).map((i) => i.path).sort();
    const expected = [
      'buyer.address.city',
      'buyer.address.postal_code',
      'buyer.electronic_address',
      'buyer_reference',
      'payment',
      'seller.address.city',
      'seller.address.postal_code',
      'seller.contact.email',
      'seller.contact.name',
      'seller.contact.phone',
      'seller.electronic_address',
    ].map((p) => `e_invoice.invoice.${p}`);
    for (const p of expected) assert.ok(paths.includes(p), `${p} missing from ${paths.join(', ')}`);
  });
});

describe('defaults and normalisation', () => {
  it('fills line ids, unit code C62, base quantity 1, category S, reference and exemption texts', () => {
    const inv = fixture('reverse-charge-at');
    inv.lines = [{ name: '  Beratung ', quantity: '2', unit_price: 50, vat: { category: 'AE' } }];
    inv.tax_exemptions = {};
    inv.payment = { iban: 'de75 5121 0800 1245 1261 99', due_date: '2025-03-30' };
    const p = prepared({ standard: 'factur-x', invoice: inv });
    const line = p.lines[0];
    assert.equal(line?.id, '1');
    assert.equal(line?.name, 'Beratung');
    assert.equal(line?.unit_code, 'C62');
    assert.equal(line?.price_base_quantity.toString(), '1');
    assert.equal(line?.vat.rate?.toString(), '0');
    assert.equal(p.invoice.payment?.means_code, '58');
    assert.equal(p.invoice.payment?.iban, 'DE75512108001245126199');
    assert.equal(p.invoice.payment?.reference, 'R-2025-0105');
    assert.deepEqual(p.invoice.tax_exemptions, { AE: { reason: 'Reverse charge', code: 'VATEX-EU-AE' } });
    assert.equal(p.vatBreakdown[0]?.exemption_code, 'VATEX-EU-AE');
  });

  it('sent exemption fields replace the defaults; means code 59 with a debited iban, else 1', () => {
    const p = prepared({ standard: 'factur-x', invoice: fixture('reverse-charge-at') });
    assert.deepEqual(p.invoice.tax_exemptions.AE, {
      reason: 'Steuerschuldnerschaft des Leistungsempfängers',
      code: 'VATEX-EU-AE',
    });
    const dd = fixture('direct-debit');
    (dd.payment as Json).means_code = undefined;
    assert.equal(prepared({ standard: 'factur-x', invoice: dd }).invoice.payment?.means_code, '59');
    const none = invoice();
    none.payment = { terms: 'Bar bei Lieferung' };
    assert.equal(prepared({ standard: 'factur-x', invoice: none }).invoice.payment?.means_code, '1');
  });

  it('the minimum profile needs no due date; rules apply from basic-wl up', () => {
    const inv = invoice();
    inv.payment = undefined;
    assert.ok(validateEInvoice({ standard: 'factur-x', profile: 'minimum', invoice: inv }).ok);
    assert.ok(!validateEInvoice({ standard: 'factur-x', profile: 'basic-wl', invoice: inv }).ok);
  });

  it('keeps inner line breaks of payment terms and ends a Skonto line with a line break', () => {
    const p = prepared({ standard: 'xrechnung-cii', invoice: fixture('french-seller-gbp-skonto') });
    assert.equal(p.invoice.payment?.terms, 'Paiement à 30 jours.\n#SKONTO#TAGE=10#PROZENT=2.00#\n');
  });

  it('accepts numbers and decimal strings alike, computing exactly', () => {
    const inv = invoice();
    inv.lines = [
      { name: 'a', quantity: 0.1, unit_price: '0.2', vat: { category: 'S', rate: '19.0' } },
      { name: 'b', quantity: '3', unit_price: 0.3, vat: { category: 'S', rate: 19 } },
    ];
    const p = prepared({ standard: 'factur-x', invoice: inv });
    assert.equal(formatAmount(p.totals.line_total), '0.92');
    assert.equal(p.vatBreakdown.length, 1, '19.0 and 19 are one rate');
  });

  it('a percentage document allowance defaults its base to the sum of line net amounts', () => {
    const p = prepared({ standard: 'factur-x', invoice: fixture('french-seller-gbp-skonto') });
    const allowance = p.docAllowances[0];
    assert.equal(allowance?.base_amount?.toFixed(2), '1012.00');
    assert.equal(allowance?.amount.toFixed(2), '30.36');
    assert.deepEqual(allowance?.vat.category, 'S');
  });
});

describe('fixtures', () => {
  it('every fixture is valid for every standard and profile it targets', () => {
    let checked = 0;
    for (const f of EINVOICE_FIXTURES) {
      for (const target of fixtureTargets(f)) {
        const result = validateEInvoice(target);
        assert.ok(
          result.ok,
          `${f.name} ${target.standard}/${target.profile}: ${result.ok ? '' : JSON.stringify(result.error.details)}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 80);
  });

  it('together they cover every VAT category, 381, 389, prepaid, rounding and four currencies', () => {
    const all = EINVOICE_FIXTURES.map((f) =>
      prepared({ standard: 'factur-x', profile: 'extended', invoice: f.invoice }),
    );
    const categories = new Set(all.flatMap((p) => p.vatBreakdown.map((b) => b.category)));
    assert.deepEqual([...categories].sort(), ['AE', 'E', 'G', 'K', 'L', 'M', 'O', 'S', 'Z']);
    const types = new Set(all.map((p) => p.invoice.type_code));
    assert.ok(types.has('381') && types.has('389'));
    assert.ok(all.some((p) => !p.totals.prepaid.isZero()) && all.some((p) => !p.totals.rounding.isZero()));
    assert.ok(new Set(all.map((p) => p.invoice.currency)).size >= 4);
  });
});
