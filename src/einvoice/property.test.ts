import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { PROFILES_BY_STANDARD, type PreparedEInvoice, STANDARDS, TOTAL_FIELDS } from './model.js';
import { validateEInvoice } from './validate/validate.js';

/**
 * Property tests with a seeded generator (reproducible): random valid invoices always satisfy the
 * EN 16931 calculation rules BR-CO-10 … BR-CO-17 on the computed totals, and a random single-field
 * corruption of a valid invoice is always rejected with an issue at the broken field's path.
 */
type Json = Record<string, unknown>;
const RUNS = 300;

function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** A decimal string with up to `dp` decimals in [0, max). */
  dec(max: number, dp: number): string {
    return new Decimal(this.int(0, max * 10 ** dp - 1)).dividedBy(10 ** dp).toString();
  }
  /** As a JSON number or a decimal string, both are accepted. */
  num(value: string): string | number {
    return this.chance(0.5) ? value : Number(value);
  }
}

// KSeF FA(3) needs Polish NIPs and rates: its own tests (src/einvoice/ksef/ksef.test.ts) cover it. France's
// EXTENDED-CTC-FR and Croatia's HR-CIUS need SIRENs/OIBs and national fields: src/einvoice/national.test.ts.
const TARGETS = STANDARDS.filter((standard) => standard !== 'ksef' && standard !== 'hr-cius').flatMap(
  (standard) =>
    PROFILES_BY_STANDARD[standard]
      .filter((profile) => profile !== 'extended-ctc-fr')
      .map((profile) => ({ standard, profile })),
);
const TAXED = [
  { category: 'S', rate: '19' },
  { category: 'S', rate: '7' },
  { category: 'S', rate: '5.5' },
  { category: 'S', rate: '21' },
  { category: 'Z', rate: '0' },
  { category: 'E', rate: '0' },
  { category: 'AE', rate: '0' },
  { category: 'K', rate: '0' },
  { category: 'G', rate: '0' },
  { category: 'L', rate: '7' },
  { category: 'M', rate: '0.5' },
];

/** Peppol endpoints (CL008: no e-mail scheme): a GLN and a Belgian enterprise number with valid check digits. */
const PEPPOL_ENDPOINTS = {
  seller: { value: '4000001123452', scheme: '0088' },
  buyer: { value: '0417497106', scheme: '0208' },
};

function parties(notSubject: boolean, peppol: boolean): Json {
  const seller: Json = {
    name: 'Seller GmbH',
    address: { line1: 'Weg 1', city: 'Köln', postal_code: '50667', country_code: 'DE' },
    tax_number: '214/5711/0815',
    legal_registration_id: 'HRB 1',
    electronic_address: { value: 'invoice@seller.example' },
    contact: { name: 'Petra', phone: '+49 221 987654', email: 'petra@seller.example' },
  };
  const buyer: Json = {
    name: 'Acheteur SA',
    address: { city: 'Paris', postal_code: '75002', country_code: 'FR' },
    electronic_address: { value: 'ap@buyer.example' },
  };
  if (peppol) {
    seller.electronic_address = PEPPOL_ENDPOINTS.seller;
    buyer.electronic_address = PEPPOL_ENDPOINTS.buyer;
  }
  if (!notSubject) {
    seller.vat_id = 'DE811569869';
    buyer.vat_id = 'FR40303265045';
  }
  return { seller, buyer };
}

function allowanceOrCharge(g: Gen, reason: string): Json {
  return g.chance(0.5)
    ? { amount: g.dec(20, 2), reason }
    : { percent: g.num(g.dec(30, 2)), reason_code: reason === 'a' ? '95' : 'FC' };
}

function randomLine(g: Gen, vat: { category: string; rate: string }): Json {
  const quantity = new Decimal(g.dec(50, 3))
    .plus('0.001')
    .times(g.chance(0.1) ? -1 : 1)
    .toString();
  const line: Json = {
    name: `Item ${g.int(1, 999)}`,
    quantity: g.num(quantity),
    unit_price: g.num(g.dec(500, 4)),
  };
  line.vat = vat.category === 'O' ? { category: 'O' } : { category: vat.category, rate: g.num(vat.rate) };
  if (g.chance(0.2)) line.price_base_quantity = g.pick([10, 100, '0.5']);
  if (g.chance(0.25)) line.allowances = [allowanceOrCharge(g, 'a')];
  if (g.chance(0.2)) line.charges = [allowanceOrCharge(g, 'c')];
  if (g.chance(0.2)) line.unit_code = g.pick(['HUR', 'DAY', 'KGM', 'MTR', 'LS']);
  return line;
}

/** A random invoice valid for the returned target. */
function randomInvoice(g: Gen): { target: (typeof TARGETS)[number]; invoice: Json } {
  const target = g.pick(TARGETS);
  const notSubject = g.chance(0.1);
  const rates = notSubject
    ? [{ category: 'O', rate: '' }]
    : Array.from({ length: g.int(1, 3) }, () => g.pick(TAXED));
  const lines = Array.from({ length: g.int(1, 8) }, () => randomLine(g, g.pick(rates)));
  const used = (lines as { vat: { category: string; rate?: unknown } }[]).map((l) => l.vat);
  const docVat = () => (g.chance(0.5) ? { vat: g.pick(used) } : {});
  const distinct = new Set(used.map((v) => `${v.category}|${String(v.rate)}`)).size;
  const docItem = (reason: string) => ({
    ...allowanceOrCharge(g, reason),
    ...(distinct > 1 ? { vat: g.pick(used) } : docVat()),
  });
  const invoice: Json = {
    number: `INV-${g.int(1, 99999)}`,
    issue_date: '2025-03-03',
    currency: g.pick(['EUR', 'USD', 'CHF', 'GBP', 'SEK']),
    // Peppol BIS has no self-billing (389) and allows 384 only between German parties (P0100, P0112).
    type_code: g.pick(target.standard === 'peppol' ? ['380', '381'] : ['380', '381', '384', '389']),
    buyer_reference: 'LEITWEG-1',
    ...parties(notSubject, target.standard === 'peppol'),
    delivery_date: '2025-03-01',
    delivery: { address: { city: 'Lyon', postal_code: '69002', country_code: 'FR' } },
    payment: { iban: 'DE75512108001245126199', due_date: '2025-03-31' },
    lines,
    tax_exemptions: { E: { reason: 'Steuerfrei', code: 'VATEX-EU-132' } },
  };
  if (g.chance(0.3)) invoice.allowances = [docItem('a')];
  if (g.chance(0.3)) invoice.charges = [docItem('c')];
  if (target.profile !== 'minimum' && g.chance(0.3)) invoice.prepaid_amount = g.dec(50, 2);
  if (['en16931', 'extended', 'xrechnung'].includes(target.profile) && g.chance(0.3))
    invoice.rounding_amount = new Decimal(g.int(-5, 5)).dividedBy(100).toString();
  return { target, invoice };
}

const cents = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const sum = (ds: Decimal[]) => ds.reduce((a, b) => a.plus(b), new Decimal(0));

/** BR-CO-10 … BR-CO-17, and every amount in cents. */
function assertCalculationRules(p: PreparedEInvoice): void {
  const t = p.totals;
  assert.ok(t.line_total.eq(sum(p.lines.map((l) => l.net_amount))), 'BR-CO-10');
  assert.ok(t.allowance_total.eq(sum(p.docAllowances.map((a) => a.amount))), 'BR-CO-11');
  assert.ok(t.charge_total.eq(sum(p.docCharges.map((c) => c.amount))), 'BR-CO-12');
  assert.ok(t.tax_basis_total.eq(t.line_total.minus(t.allowance_total).plus(t.charge_total)), 'BR-CO-13');
  assert.ok(t.tax_total.eq(sum(p.vatBreakdown.map((b) => b.tax_amount))), 'BR-CO-14');
  assert.ok(t.grand_total.eq(t.tax_basis_total.plus(t.tax_total)), 'BR-CO-15');
  assert.ok(t.due_payable.eq(t.grand_total.minus(t.prepaid).plus(t.rounding)), 'BR-CO-16');
  for (const b of p.vatBreakdown)
    assert.ok(b.tax_amount.eq(cents(b.taxable_amount.times(b.rate ?? 0).dividedBy(100))), 'BR-CO-17');
  assert.ok(sum(p.vatBreakdown.map((b) => b.taxable_amount)).eq(t.tax_basis_total), 'breakdown bases add up');
  for (const l of p.lines) {
    const gross = cents(l.quantity.times(l.unit_price).dividedBy(l.price_base_quantity));
    const expected = gross
      .minus(sum(l.allowances.map((a) => a.amount)))
      .plus(sum(l.charges.map((c) => c.amount)));
    assert.ok(l.net_amount.eq(expected), 'BR-24 line net amount');
  }
  for (const field of TOTAL_FIELDS) assert.ok(t[field].decimalPlaces() <= 2, `${field} in cents`);
}

describe('property: random valid invoices', () => {
  it(`${RUNS} random invoices are accepted and satisfy BR-CO-10 … BR-CO-17; their totals round-trip`, () => {
    const g = new Gen(prng(20250303));
    for (let run = 0; run < RUNS; run++) {
      const { target, invoice } = randomInvoice(g);
      const result = validateEInvoice({ ...target, invoice });
      assert.ok(result.ok, `run ${run}: ${result.ok ? '' : JSON.stringify(result.error.details)}`);
      assertCalculationRules(result.value);
      const sent = Object.fromEntries(TOTAL_FIELDS.map((f) => [f, result.value.totals[f].toFixed(2)]));
      assert.ok(
        validateEInvoice({ ...target, invoice: { ...invoice, totals: sent } }).ok,
        `run ${run}: totals round trip`,
      );
    }
  });
});

type Corruption = (inv: Json, g: Gen) => string;
const I = 'e_invoice.invoice';
const lineAt = (inv: Json, g: Gen): [Json, number] => {
  const lines = inv.lines as Json[];
  const i = g.int(0, lines.length - 1);
  return [lines[i] as Json, i];
};
const CORRUPTIONS: Record<string, Corruption> = {
  quantity: (inv, g) => {
    const [l, i] = lineAt(inv, g);
    l.quantity = g.pick(['abc', '1.1234567', '', null]);
    return `${I}.lines[${i}].quantity`;
  },
  unitPrice: (inv, g) => {
    const [l, i] = lineAt(inv, g);
    l.unit_price = g.pick(['-1', -0.5, '1e3', true]);
    return `${I}.lines[${i}].unit_price`;
  },
  category: (inv, g) => {
    const [l, i] = lineAt(inv, g);
    (l.vat as Json).category = g.pick(['X', 'B', 's', 7]);
    return `${I}.lines[${i}].vat.category`;
  },
  name: (inv, g) => {
    const [l, i] = lineAt(inv, g);
    l.name = g.pick([undefined, '   ', 12]);
    return `${I}.lines[${i}].name`;
  },
  unitCode: (inv, g) => {
    const [l, i] = lineAt(inv, g);
    l.unit_code = g.pick(['PIECE', 'c62', 'XX9']);
    return `${I}.lines[${i}].unit_code`;
  },
  unknownLineField: (inv, g) => {
    const [l, i] = lineAt(inv, g);
    l.discount = 5;
    return `${I}.lines[${i}].discount`;
  },
  currency: (inv, g) => {
    inv.currency = g.pick(['EURO', 'eur', 'XYZ', 978]);
    return `${I}.currency`;
  },
  issueDate: (inv, g) => {
    inv.issue_date = g.pick(['2025-02-29', '2025-3-3', 'today']);
    return `${I}.issue_date`;
  },
  number: (inv, g) => {
    inv.number = g.pick(['x'.repeat(201), '', undefined]);
    return `${I}.number`;
  },
  country: (inv, g) => {
    ((inv.seller as Json).address as Json).country_code = g.pick(['ZZ', 'deu', 'de']);
    return `${I}.seller.address.country_code`;
  },
  iban: (inv, g) => {
    (inv.payment as Json).iban = g.pick(['DE75512108001245126198', 'DE00', 'XX75512108001245126199']);
    return `${I}.payment.iban`;
  },
  bic: (inv, g) => {
    (inv.payment as Json).bic = g.pick(['SOGEDEF', 'SOGEDEFFXX', '12345678']);
    return `${I}.payment.bic`;
  },
  dueDate: (inv) => {
    (inv.payment as Json).due_date = '2025-03-02';
    return `${I}.payment.due_date`;
  },
  totals: (inv, g) => {
    const field = g.pick(TOTAL_FIELDS);
    inv.totals = { [field]: '987654.32' };
    return `${I}.totals.${field}`;
  },
};

describe('property: random single-field corruptions', () => {
  it(`${RUNS} corrupted invoices are rejected with an issue at the broken field`, () => {
    const g = new Gen(prng(4711));
    const names = Object.keys(CORRUPTIONS);
    for (let run = 0; run < RUNS; run++) {
      const { target, invoice } = randomInvoice(g);
      const name = names[run % names.length] ?? 'quantity';
      const expected = (CORRUPTIONS[name] as Corruption)(invoice, g);
      const result = validateEInvoice({ ...target, invoice });
      assert.ok(!result.ok, `run ${run} (${name}) was accepted`);
      assert.equal(result.error.code, 'invalid_e_invoice');
      const paths = ((result.error.details?.issues ?? []) as { path: string }[]).map((i) => i.path);
      assert.ok(paths.includes(expected), `run ${run} (${name}): ${expected} not in ${paths.join(', ')}`);
    }
  });
});
