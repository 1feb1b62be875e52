import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EINVOICE_FIXTURES, peppolVariant } from '../../test/fixtures/einvoice-fixtures.js';
import { isBeEnterprise, isGln } from './validate/peppol-identifiers.js';
import { validateEInvoice } from './validate/validate.js';
import { buildCii } from './xml/cii.js';
import { buildUbl } from './xml/ubl.js';

/** The extension standards peppol, en16931-ubl and en16931-cii: what is checked before output and what is written. */
type Json = Record<string, unknown>;
const I = 'e_invoice.invoice';

/** A German seller invoicing an Austrian buyer: Peppol-ready, outside OpenPeppol’s German and Dutch rules. */
function crossBorder(): Json {
  const found = EINVOICE_FIXTURES.find((f) => f.name === 'reverse-charge-at');
  assert.ok(found);
  const invoice = peppolVariant(found.invoice);
  assert.ok(invoice);
  return invoice;
}

function issues(standard: string, invoice: Json): { path: string; message: string }[] {
  const result = validateEInvoice({ standard, invoice });
  assert.ok(!result.ok, `${standard}: expected a rejection`);
  assert.equal(result.error.code, 'invalid_e_invoice');
  return (result.error.details?.issues ?? []) as { path: string; message: string }[];
}

function prepared(standard: string, invoice: Json) {
  const result = validateEInvoice({ standard, invoice });
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.error.details));
  return result.value;
}

/** Rejected with exactly one issue, at `path`, naming the official rule. */
function rejectedAt(invoice: Json, path: string, rule: string): void {
  const found = issues('peppol', invoice);
  assert.deepEqual(
    found.map((i) => i.path),
    [path],
    JSON.stringify(found),
  );
  assert.match(found[0]?.message ?? '', new RegExp(rule));
}

describe('peppol: Peppol BIS Billing 3.0 rules checked before output', () => {
  it('accepts a Peppol-ready invoice with profile en16931, the only one it offers', () => {
    const p = prepared('peppol', crossBorder());
    assert.equal(p.profile, 'en16931');
    const wrong = validateEInvoice({ standard: 'peppol', profile: 'xrechnung', invoice: crossBorder() });
    assert.ok(!wrong.ok);
    assert.deepEqual(
      ((wrong.error.details?.issues ?? []) as { path: string }[]).map((i) => i.path),
      ['e_invoice.profile'],
    );
  });

  it('needs both electronic addresses, as Peppol endpoint schemes (R010, R020, CL008)', () => {
    const inv = crossBorder();
    delete (inv.buyer as Json).electronic_address;
    rejectedAt(inv, `${I}.buyer.electronic_address`, 'PEPPOL-EN16931-R010');
    const seller = crossBorder();
    delete (seller.seller as Json).electronic_address;
    rejectedAt(seller, `${I}.seller.electronic_address`, 'PEPPOL-EN16931-R020');
    const email = crossBorder();
    (email.seller as Json).electronic_address = { value: 'ap@seller.example', scheme: 'EM' };
    rejectedAt(email, `${I}.seller.electronic_address.scheme`, 'PEPPOL-EN16931-CL008');
    // The same invoice is fine for plain EN 16931, where an e-mail endpoint is allowed.
    assert.ok(validateEInvoice({ standard: 'en16931-ubl', invoice: email }).ok);
  });

  it('checks identifier formats of the schemes OpenPeppol checks (PEPPOL-COMMON-R040, R043)', () => {
    assert.ok(isGln('4000001123452'));
    assert.ok(!isGln('4000001123453'));
    assert.ok(isBeEnterprise('0417497106'));
    assert.ok(!isBeEnterprise('0417497107'));
    const gln = crossBorder();
    (gln.buyer as Json).electronic_address = { value: '4000001123453', scheme: '0088' };
    rejectedAt(gln, `${I}.buyer.electronic_address.value`, 'PEPPOL-COMMON-R040');
    const be = crossBorder();
    Object.assign(be.buyer as Json, { id: '0417497107', id_scheme: '0208' });
    rejectedAt(be, `${I}.buyer.id`, 'PEPPOL-COMMON-R043');
  });

  it('needs a buyer reference or an order reference (R003)', () => {
    const inv = crossBorder();
    delete inv.buyer_reference;
    rejectedAt(inv, `${I}.buyer_reference`, 'PEPPOL-EN16931-R003');
    assert.ok(
      validateEInvoice({ standard: 'peppol', invoice: { ...inv, purchase_order_reference: 'PO-1' } }).ok,
    );
  });

  it('refuses type codes outside Peppol billing and 384 outside Germany (P0100, P0101, P0112)', () => {
    rejectedAt({ ...crossBorder(), type_code: '389' }, `${I}.type_code`, 'PEPPOL-EN16931-P0100');
    rejectedAt({ ...crossBorder(), type_code: '261' }, `${I}.type_code`, 'PEPPOL-EN16931-P0101');
    rejectedAt({ ...crossBorder(), type_code: '384' }, `${I}.type_code`, 'PEPPOL-EN16931-P0112');
    assert.ok(validateEInvoice({ standard: 'peppol', invoice: { ...crossBorder(), type_code: '381' } }).ok);
  });

  it('allows one note unless both parties are German (R002)', () => {
    rejectedAt({ ...crossBorder(), notes: ['a', 'b'] }, `${I}.notes`, 'PEPPOL-EN16931-R002');
    const german = EINVOICE_FIXTURES.find((f) => f.name === 'two-rates-allowances-prepaid');
    assert.ok(german);
    const inv = peppolVariant(german.invoice);
    assert.ok(inv && (inv.notes as string[]).length === 2);
    assert.ok(validateEInvoice({ standard: 'peppol', invoice: inv }).ok);
  });

  it('refuses currencies missing from Peppol’s ISO 4217 list (CL007, release 3.0.21)', () => {
    rejectedAt({ ...crossBorder(), currency: 'STD' }, `${I}.currency`, 'PEPPOL-EN16931-CL007');
    // 3.0.21 added CNH and XCG to its list.
    assert.ok(validateEInvoice({ standard: 'peppol', invoice: { ...crossBorder(), currency: 'XCG' } }).ok);
  });

  it('follows release 3.0.21: withdrawn endpoint schemes, Danish identifier formats (CL008, COMMON-R052/R053)', () => {
    const withEndpoint = (value: string, scheme: string) => {
      const inv = crossBorder();
      Object.assign(inv.buyer as Json, { electronic_address: { value, scheme } });
      return inv;
    };
    rejectedAt(
      withEndpoint('12345678', '0037'),
      `${I}.buyer.electronic_address.scheme`,
      'PEPPOL-EN16931-CL008',
    );
    rejectedAt(withEndpoint('12345', '0096'), `${I}.buyer.electronic_address.value`, 'PEPPOL-COMMON-R052');
    rejectedAt(withEndpoint('12345678', '0198'), `${I}.buyer.electronic_address.value`, 'PEPPOL-COMMON-R053');
    assert.ok(validateEInvoice({ standard: 'peppol', invoice: withEndpoint('DK12345678', '0198') }).ok);
    assert.ok(validateEInvoice({ standard: 'peppol', invoice: withEndpoint('1234567890', '0096') }).ok);
  });

  it('needs the mandate reference of a direct debit (R061)', () => {
    const inv = crossBorder();
    inv.payment = { means_code: '49', debited_iban: 'DE89370400440532013000', due_date: '2025-04-30' };
    rejectedAt(inv, `${I}.payment.mandate_reference`, 'PEPPOL-EN16931-R061');
  });

  it('keeps line periods within the billing period (R110, R111)', () => {
    const inv = crossBorder();
    inv.billing_period = { start: '2025-02-01', end: '2025-02-28' };
    (inv.lines as Json[])[0] = {
      ...(inv.lines as Json[])[0],
      period: { start: '2025-01-15', end: '2025-03-02' },
    };
    const found = issues('peppol', inv).map((i) => i.path);
    assert.deepEqual(found, [`${I}.lines[0].period.start`, `${I}.lines[0].period.end`]);
  });

  it('uses a VATEX code only with its category (P0104 … P0111)', () => {
    const inv = crossBorder();
    inv.tax_exemptions = { AE: { reason: 'Export', code: 'VATEX-EU-G' } };
    rejectedAt(inv, `${I}.tax_exemptions.AE.code`, 'PEPPOL-EN16931-P0104');
  });

  it('applies OpenPeppol’s German rules between German parties (DE-R-*)', () => {
    const german = EINVOICE_FIXTURES.find((f) => f.name === 'two-rates-allowances-prepaid');
    assert.ok(german);
    const inv = peppolVariant(german.invoice) as Json;
    delete (inv.seller as Json).contact;
    delete inv.buyer_reference;
    inv.purchase_order_reference = 'PO-1';
    const found = issues('peppol', inv);
    assert.deepEqual(found.map((i) => i.path).sort(), [
      `${I}.buyer_reference`,
      `${I}.seller.contact.email`,
      `${I}.seller.contact.name`,
      `${I}.seller.contact.phone`,
    ]);
    assert.match(found.find((i) => i.path.endsWith('contact.name'))?.message ?? '', /DE-R-005/);
    assert.match(found.find((i) => i.path.endsWith('buyer_reference'))?.message ?? '', /DE-R-015/);
  });

  it('applies OpenPeppol’s Dutch rules to a seller in the Netherlands (NL-R-*)', () => {
    const inv = crossBorder();
    inv.seller = {
      ...(inv.seller as Json),
      address: { city: 'Amsterdam', postal_code: '1015 CW', country_code: 'NL' },
      vat_id: 'NL123456789B01',
      legal_registration_id: '12345678',
      legal_registration_scheme: '0002',
    };
    delete (inv.seller as Json).tax_number;
    const found = issues('peppol', inv);
    assert.deepEqual(found.map((i) => i.path).sort(), [
      `${I}.seller.address.line1`,
      `${I}.seller.legal_registration_scheme`,
    ]);
    assert.match(found.map((i) => i.message).join(' '), /NL-R-002.*NL-R-003/);
  });

  it('applies OpenPeppol’s national rules for sellers in Norway, Denmark, Italy, Sweden and Iceland', () => {
    const withSeller = (country: string, fields: Json, address: Json = {}): Json => {
      const inv = crossBorder();
      const seller = { ...(inv.seller as Json), ...fields };
      seller.address = { ...(seller.address as Json), ...address, country_code: country };
      inv.seller = seller;
      return inv;
    };
    rejectedAt(withSeller('NO', { vat_id: 'NO923609017MVA' }), `${I}.seller.vat_id`, 'NO-R-001');
    assert.ok(
      validateEInvoice({ standard: 'peppol', invoice: withSeller('NO', { vat_id: 'NO923609016MVA' }) }).ok,
    );
    rejectedAt(
      withSeller('DK', {
        vat_id: 'DK13585628',
        legal_registration_id: '13585628',
        legal_registration_scheme: '0002',
      }),
      `${I}.seller.legal_registration_scheme`,
      'DK-R-014',
    );
    rejectedAt(
      withSeller('IT', { vat_id: 'IT12345678901', tax_number: 'abc' }),
      `${I}.seller.tax_number`,
      'IT-R-001',
    );
    rejectedAt(
      withSeller('SE', {
        vat_id: 'SE556036079301',
        legal_registration_id: '5560360794',
        tax_number: 'Godkänd för F-skatt',
      }),
      `${I}.seller.legal_registration_id`,
      'SE-R-013',
    );
    rejectedAt(withSeller('IS', { vat_id: 'IS12345' }), `${I}.seller.legal_registration_id`, 'IS-R-002');
  });

  it('between Danish parties: the buyer’s CVR scheme and no UNSPSC without its version (DK-R-017, DK-R-003)', () => {
    const inv = crossBorder();
    const dk = (party: Json): Json => ({
      ...party,
      address: { ...(party.address as Json), country_code: 'DK' },
    });
    inv.seller = {
      ...dk(inv.seller as Json),
      vat_id: 'DK13585628',
      legal_registration_id: '13585628',
      legal_registration_scheme: '0184',
    };
    inv.buyer = {
      ...dk(inv.buyer as Json),
      legal_registration_id: '12345678',
      legal_registration_scheme: '0002',
    };
    const lines = inv.lines as Json[];
    lines[0] = { ...lines[0], classification_code: '43211503', classification_scheme: 'TST' };
    const found = issues('peppol', inv);
    const at = (path: string) => found.find((i) => i.path === `${I}.${path}`)?.message ?? '';
    assert.match(at('buyer.legal_registration_scheme'), /DK-R-017/);
    assert.match(at('lines[0].classification_scheme'), /DK-R-003/);
  });
});

describe('peppol, en16931-ubl, en16931-cii: what is written', () => {
  it('peppol writes UBL with Peppol BIS 3.0 CustomizationID, billing ProfileID and both EndpointIDs', () => {
    const xml = buildUbl(prepared('peppol', crossBorder()));
    assert.match(
      xml,
      /<cbc:CustomizationID>urn:cen\.eu:en16931:2017#compliant#urn:fdc:peppol\.eu:2017:poacc:billing:3\.0<\/cbc:CustomizationID>\s*<cbc:ProfileID>urn:fdc:peppol\.eu:2017:poacc:billing:01:1\.0<\/cbc:ProfileID>/,
    );
    assert.match(xml, /<cbc:EndpointID schemeID="0088">4000001123452<\/cbc:EndpointID>/);
    assert.match(xml, /<cbc:EndpointID schemeID="0088">4012345000009<\/cbc:EndpointID>/);
  });

  it('en16931-ubl writes plain EN 16931 without a business process; en16931-cii the EN 16931 guideline', () => {
    const ubl = buildUbl(prepared('en16931-ubl', crossBorder()));
    assert.match(ubl, /<cbc:CustomizationID>urn:cen\.eu:en16931:2017<\/cbc:CustomizationID>/);
    assert.doesNotMatch(ubl, /<cbc:ProfileID>/);
    const p = prepared('en16931-cii', crossBorder());
    const cii = buildCii(p, p.profile);
    assert.match(
      cii,
      /<ram:GuidelineSpecifiedDocumentContextParameter>\s*<ram:ID>urn:cen\.eu:en16931:2017<\/ram:ID>/,
    );
  });
});

describe('property: random combinations of Peppol defects', () => {
  /** Independent defects: each breaks one Peppol rule at its own path. */
  const DEFECTS: [string, (inv: Json) => void][] = [
    [`${I}.buyer.electronic_address`, (inv) => delete (inv.buyer as Json).electronic_address],
    [
      `${I}.seller.electronic_address.scheme`,
      (inv) =>
        Object.assign(inv.seller as Json, { electronic_address: { value: 'a@b.example', scheme: 'EM' } }),
    ],
    [`${I}.buyer_reference`, (inv) => delete inv.buyer_reference],
    [`${I}.notes`, (inv) => Object.assign(inv, { notes: ['one', 'two', 'three'] })],
    [`${I}.currency`, (inv) => Object.assign(inv, { currency: 'STD' })],
    [`${I}.type_code`, (inv) => Object.assign(inv, { type_code: '389' })],
    [
      `${I}.seller.id`,
      (inv) => Object.assign(inv.seller as Json, { id: '4000001123450', id_scheme: '0088' }),
    ],
  ];
  let state = 20261126;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };

  it('200 invoices with 1 to 7 defects list every defect at once, at its path', () => {
    for (let run = 0; run < 200; run++) {
      const chosen = DEFECTS.filter(() => next() < 0.5);
      if (chosen.length === 0) chosen.push(DEFECTS[run % DEFECTS.length] as (typeof DEFECTS)[number]);
      const inv = crossBorder();
      for (const [, change] of chosen) change(inv);
      const paths = issues('peppol', inv).map((i) => i.path);
      for (const [path] of chosen)
        assert.ok(paths.includes(path), `run ${run}: ${path} not in ${paths.join(', ')}`);
    }
  });
});
