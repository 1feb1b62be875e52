import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FR_B2B_INVOICE,
  FR_CREDIT_NOTE,
  FR_INVOICE,
  HR_INVOICE,
} from '../../test/fixtures/einvoice-national-fixtures.js';
import { validateEInvoice } from './validate/validate.js';
import { buildCii } from './xml/cii.js';
import { EXTENDED_CTC_FR_ID } from './xml/cii-profile.js';
import { splitUblNote, ublNoteText } from './xml/fr-ctc.js';
import { HR_CIUS_ID, hrTaxCategoryName, isValidOib } from './xml/hr-cius.js';
import { buildUbl } from './xml/ubl.js';

/** France's EXTENDED-CTC-FR and Croatia's HR-CIUS: what is checked before output and where it is written. */
type Json = Record<string, unknown>;
const I = 'e_invoice.invoice';
const copy = (value: Json): Json => structuredClone(value);

function prepared(standard: string, profile: string | undefined, invoice: Json) {
  const result = validateEInvoice({ standard, profile, invoice });
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.error.details));
  return result.value;
}

function issues(
  standard: string,
  profile: string | undefined,
  invoice: Json,
): { path: string; message: string }[] {
  const result = validateEInvoice({ standard, profile, invoice });
  assert.ok(!result.ok, `${standard}/${profile}: expected a rejection`);
  assert.equal(result.error.code, 'invalid_e_invoice');
  return (result.error.details?.issues ?? []) as { path: string; message: string }[];
}

/** Rejected at exactly `path`, the message naming the official rule. */
function rejectedAt(
  standard: string,
  profile: string | undefined,
  invoice: Json,
  path: string,
  rule: string,
): void {
  const found = issues(standard, profile, invoice);
  assert.deepEqual(
    found.map((i) => i.path),
    [path],
    JSON.stringify(found),
  );
  assert.match(found[0]?.message ?? '', new RegExp(rule));
}

const FR = ['en16931-cii', 'extended-ctc-fr'] as const;

describe('France: profile extended-ctc-fr', () => {
  it('is offered by factur-x, en16931-cii and en16931-ubl, not by the others', () => {
    for (const standard of ['factur-x', 'en16931-cii', 'en16931-ubl'])
      assert.equal(prepared(standard, 'extended-ctc-fr', FR_INVOICE).profile, 'extended-ctc-fr');
    const paths = issues('xrechnung-cii', 'extended-ctc-fr', FR_INVOICE).map((i) => i.path);
    assert.ok(paths.includes('e_invoice.profile'), JSON.stringify(paths));
  });

  it('writes BT-24 EXTENDED-CTC-FR, the billing mode in BT-23 and the notes with their subject codes (CII)', () => {
    const xml = buildCii(prepared(...FR, FR_INVOICE), 'extended-ctc-fr');
    assert.match(xml, /<ram:BusinessProcessSpecifiedDocumentContextParameter>\s*<ram:ID>S1<\/ram:ID>/);
    assert.ok(xml.includes(`<ram:ID>${EXTENDED_CTC_FR_ID}</ram:ID>`));
    assert.match(
      xml,
      /<ram:Content>Pénalités de retard[^<]*<\/ram:Content>\s*<ram:SubjectCode>PMD<\/ram:SubjectCode>/,
    );
    assert.match(xml, /<ram:ID schemeID="0002">123456782<\/ram:ID>/);
    assert.match(xml, /<ram:GlobalID schemeID="0009">12345678200010<\/ram:GlobalID>/);
  });

  it('writes the UBL notes as #CODE#text and the billing mode as ProfileID', () => {
    const xml = buildUbl(prepared('en16931-ubl', 'extended-ctc-fr', FR_INVOICE));
    assert.ok(xml.includes(`<cbc:CustomizationID>${EXTENDED_CTC_FR_ID}</cbc:CustomizationID>`));
    assert.ok(xml.includes('<cbc:ProfileID>S1</cbc:ProfileID>'));
    assert.ok(xml.includes('<cbc:Note>#PMT#Indemnité forfaitaire'));
    assert.ok(xml.includes('<cbc:Note>Merci de votre confiance.</cbc:Note>'));
    assert.equal(ublNoteText('x', 'AAB'), '#AAB#x');
    assert.deepEqual(splitUblNote('#AAB#x'), { text: 'x', subject_code: 'AAB' });
    assert.deepEqual(splitUblNote('#no code'), { text: '#no code' });
  });

  it('needs the billing mode (BR-FR-08), one of the French codes', () => {
    const inv = copy(FR_INVOICE);
    delete inv.billing_mode;
    rejectedAt(...FR, inv, `${I}.billing_mode`, 'BR-FR-08');
    rejectedAt(...FR, { ...FR_INVOICE, billing_mode: 'X1' }, `${I}.billing_mode`, 'BR-FR-08');
  });

  it('needs the PMT, PMD and AAB notes, each once (BR-FR-05, BR-FR-06)', () => {
    const notes = (FR_INVOICE.notes as Json[]).filter((n) => (n as Json).subject_code !== 'AAB');
    rejectedAt(...FR, { ...FR_INVOICE, notes }, `${I}.notes`, 'BR-FR-05.*AAB|AAB.*BR-FR-05');
    const twice = [...(FR_INVOICE.notes as Json[]), { text: 'encore', subject_code: 'PMT' }];
    rejectedAt(...FR, { ...FR_INVOICE, notes: twice }, `${I}.notes`, 'BR-FR-06');
  });

  it('needs the seller SIREN with scheme 0002 (BR-FR-10) and a SIRET that begins with it (BR-FR-09)', () => {
    const inv = copy(FR_INVOICE);
    (inv.seller as Json).legal_registration_scheme = '0009';
    const found = issues(...FR, inv).map((i) => i.path);
    assert.ok(found.includes(`${I}.seller.legal_registration_id`), JSON.stringify(found));
    const siret = copy(FR_INVOICE);
    (siret.seller as Json).id = '99999999900010';
    rejectedAt(...FR, siret, `${I}.seller.id`, 'BR-FR-09');
  });

  it('routes a B2B invoice by the buyer SIREN: its address has scheme 0225 and begins with it (BR-FR-11, BR-FR-21)', () => {
    const xml = buildCii(prepared(...FR, FR_B2B_INVOICE), 'extended-ctc-fr');
    assert.match(xml, /<ram:URIID schemeID="0225">987654321_compta<\/ram:URIID>/);
    const inv = copy(FR_B2B_INVOICE);
    (inv.buyer as Json).electronic_address = { value: 'compta@librairie-du-parc.example', scheme: 'EM' };
    rejectedAt(...FR, inv, `${I}.buyer.electronic_address`, 'BR-FR-21');
    const noSiren = copy(FR_B2B_INVOICE);
    delete (noSiren.buyer as Json).legal_registration_id;
    delete (noSiren.buyer as Json).legal_registration_scheme;
    rejectedAt(...FR, noSiren, `${I}.buyer.legal_registration_id`, 'BR-FR-11');
  });

  it('needs both electronic addresses (BR-FR-12, BR-FR-13)', () => {
    const inv = copy(FR_INVOICE);
    delete (inv.buyer as Json).electronic_address;
    rejectedAt(...FR, inv, `${I}.buyer.electronic_address`, 'BR-FR-12');
  });

  it('accepts only the French VAT rates and no L or M (BR-FR-15, BR-FR-16)', () => {
    const inv = copy(FR_INVOICE);
    ((inv.lines as Json[])[0] as Json).vat = { category: 'S', rate: 19 };
    rejectedAt(...FR, inv, `${I}.lines[0].vat.rate`, 'BR-FR-16');
  });

  it('names the credited invoice with its date on a credit note (BR-FR-CO-05)', () => {
    prepared(...FR, FR_CREDIT_NOTE);
    const inv = copy(FR_CREDIT_NOTE);
    inv.preceding_invoice = { number: 'F2026-0042' };
    rejectedAt(...FR, inv, `${I}.preceding_invoice.issue_date`, 'BR-FR-CO-05');
  });

  it('keeps invoice numbers to the French alphabet (BR-FR-02) and the currency to EUR (BR-FR-CO-12)', () => {
    rejectedAt(...FR, { ...FR_INVOICE, number: 'F 2026 42' }, `${I}.number`, 'BR-FR-02');
    rejectedAt(...FR, { ...FR_INVOICE, currency: 'USD' }, `${I}.currency`, 'BR-FR-CO-12');
  });

  it('takes notes as strings or { text, subject_code } on every standard, and checks the code', () => {
    const p = prepared('en16931-cii', undefined, { ...FR_INVOICE, billing_mode: undefined });
    assert.deepEqual(p.invoice.note_subjects, [undefined, 'PMD', 'PMT', 'AAB']);
    const bad = { ...FR_INVOICE, notes: [{ text: 'x', subject_code: 'pm' }] };
    assert.ok(issues('en16931-cii', undefined, bad).some((i) => i.path === `${I}.notes[0].subject_code`));
  });

  it('refuses a billing mode where the standard fixes BT-23', () => {
    const found = issues('xrechnung-ubl', undefined, {
      ...FR_INVOICE,
      buyer_reference: '04011000-1234512345-06',
    });
    assert.ok(
      found.some((i) => i.path === `${I}.billing_mode`),
      JSON.stringify(found),
    );
  });
});

describe('Croatia: standard hr-cius', () => {
  it('writes HR-CIUS BT-24, the process, the issue time, the operator, KPD codes and HR VAT names', () => {
    const xml = buildUbl(prepared('hr-cius', undefined, HR_INVOICE));
    assert.ok(xml.includes(`<cbc:CustomizationID>${HR_CIUS_ID}</cbc:CustomizationID>`));
    assert.ok(xml.includes('<cbc:ProfileID>P1</cbc:ProfileID>'));
    assert.match(
      xml,
      /<cbc:IssueDate>2026-12-01<\/cbc:IssueDate>\s*<cbc:IssueTime>12:00:00<\/cbc:IssueTime>/,
    );
    assert.match(
      xml,
      /<\/cac:Party>\s*<cac:SellerContact>\s*<cbc:ID>12345678903<\/cbc:ID>\s*<cbc:Name>Operater1<\/cbc:Name>/,
    );
    assert.match(xml, /<cbc:ItemClassificationCode listID="CG">62.20.20<\/cbc:ItemClassificationCode>/);
    assert.match(xml, /<cbc:ID>S<\/cbc:ID>\s*<cbc:Name>HR:PDV25<\/cbc:Name>/);
  });

  it('checks OIBs with their ISO 7064 check digit', () => {
    assert.ok(isValidOib('12345678903'));
    assert.ok(isValidOib('11111111119'));
    assert.ok(!isValidOib('12345678901'));
    assert.ok(!isValidOib('1234567890'));
    rejectedAt(
      'hr-cius',
      undefined,
      { ...HR_INVOICE, operator: { name: 'Op', id: '12345678901' } },
      `${I}.operator.id`,
      'HR-BR-9',
    );
    const inv = copy(HR_INVOICE);
    (inv.buyer as Json).vat_id = 'HR11111111118';
    rejectedAt('hr-cius', undefined, inv, `${I}.buyer.vat_id`, 'HR-BR-53');
  });

  it('names HR VAT categories by HR-TB-2', () => {
    const rate = (n: number) => ({ toString: () => String(n) }) as never;
    assert.equal(hrTaxCategoryName({ category: 'S', rate: rate(25) }), 'HR:PDV25');
    assert.equal(hrTaxCategoryName({ category: 'S', rate: rate(21) }), undefined);
    assert.equal(hrTaxCategoryName({ category: 'E', rate: rate(0) }), 'HR:E');
    assert.equal(hrTaxCategoryName({ category: 'O', rate: null }), 'HR:O');
  });

  for (const [field, rule] of [
    ['issue_time', 'HR-BR-2'],
    ['operator', 'HR-BR-37'],
  ] as const) {
    it(`needs ${field} (${rule})`, () => {
      const inv = copy(HR_INVOICE);
      delete inv[field];
      rejectedAt('hr-cius', undefined, inv, `${I}.${field}`, rule);
    });
  }

  it('needs a KPD classification on each line (HR-BR-25) and the seller address (HR-BR-7)', () => {
    const inv = copy(HR_INVOICE);
    delete ((inv.lines as Json[])[1] as Json).classification_code;
    delete ((inv.lines as Json[])[1] as Json).classification_scheme;
    rejectedAt('hr-cius', undefined, inv, `${I}.lines[1].classification_code`, 'HR-BR-25');
    const noAddress = copy(HR_INVOICE);
    delete (noAddress.seller as Json).electronic_address;
    rejectedAt('hr-cius', undefined, noAddress, `${I}.seller.electronic_address`, 'HR-BR-7');
  });

  it('keeps the HR fields to hr-cius and a process type P1–P12 (HR-BR-34)', () => {
    rejectedAt('hr-cius', undefined, { ...HR_INVOICE, billing_mode: 'S1' }, `${I}.billing_mode`, 'HR-BR-34');
    const found = issues('en16931-ubl', undefined, { ...HR_INVOICE, billing_mode: undefined }).map(
      (i) => i.path,
    );
    // Outside HR-CIUS a classification needs its scheme: HR-CIUS alone completes it with CG.
    assert.deepEqual(found.sort(), [
      `${I}.issue_time`,
      `${I}.lines[0].classification_scheme`,
      `${I}.operator`,
    ]);
  });
});

describe('the national fields under random values (property)', () => {
  const VALUES: unknown[] = [
    undefined,
    null,
    '',
    ' ',
    'S1',
    'P12',
    'P99:x',
    '12:00:00',
    '25:00:00',
    7,
    -1,
    [],
    {},
    { text: 'x' },
    { text: 'x', subject_code: 'PMT' },
    { text: 7, subject_code: 'pmt' },
    { name: 'Op', id: '12345678903' },
    { name: 'Op', id: 12345678903 },
    '\u0000',
    'x'.repeat(6000),
  ];
  const FIELDS = [
    'billing_mode',
    'issue_time',
    'operator',
    'notes',
    'notes[0]',
    'lines[0].classification_code',
    'lines[0].classification_scheme',
  ];

  function mutated(base: Json, field: string, value: unknown): Json {
    const invoice = copy(base);
    const [head, rest] = field.split('.');
    if (head === 'notes[0]') invoice.notes = [value, ...((invoice.notes as unknown[]) ?? [])];
    else if (head === 'lines[0]' && rest) ((invoice.lines as Json[])[0] as Json)[rest] = value;
    else invoice[head ?? field] = value;
    return invoice;
  }

  it('answers every value with a prepared invoice or invalid_e_invoice issues under e_invoice, never a throw', () => {
    let seed = 51;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const targets = [
      ['en16931-cii', 'extended-ctc-fr', FR_INVOICE],
      ['en16931-ubl', 'extended-ctc-fr', FR_INVOICE],
      ['hr-cius', undefined, HR_INVOICE],
      ['peppol', undefined, FR_INVOICE],
    ] as const;
    for (let run = 0; run < 300; run++) {
      const [standard, profile, base] = targets[next() % targets.length] ?? targets[0];
      const field = FIELDS[next() % FIELDS.length] ?? 'billing_mode';
      const value = VALUES[next() % VALUES.length];
      const result = validateEInvoice({ standard, profile, invoice: mutated(base, field, value) });
      if (result.ok) continue;
      const what = `${standard} ${field}=${JSON.stringify(value)?.slice(0, 40)}`;
      assert.ok(['invalid_e_invoice', 'invalid_request'].includes(result.error.code), what);
      const found = (result.error.details?.issues ?? [{ path: result.error.details?.field }]) as {
        path: string;
      }[];
      assert.ok(found.length > 0 && found.every((i) => i.path.startsWith('e_invoice')), what);
    }
  });
});
