import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CREDIT_NOTE_TYPE_CODES } from '../../../src/einvoice/codes.js';
import {
  type PreparedEInvoice,
  type Profile,
  type Standard,
  XML_STANDARDS,
} from '../../../src/einvoice/model.js';
import { validateEInvoice } from '../../../src/einvoice/validate/validate.js';
import { buildCii } from '../../../src/einvoice/xml/cii.js';
import { EN16931_ID, PEPPOL_BIS_3_ID } from '../../../src/einvoice/xml/cii-profile.js';
import { buildUbl } from '../../../src/einvoice/xml/ubl.js';
import { EINVOICE_FIXTURES, peppolVariant } from '../../fixtures/einvoice-fixtures.js';
import { pdfWords } from '../../helpers/pdf.js';
import { type InvoiceCase, CASES as OWN_CASES } from './cases.js';
import { prepareCase } from './prepare.js';
import { InvoicePdfHarness, rowValues } from './render-harness.js';
import { problems, VALIDATOR, type ValidatorReport, validateFiles } from './validator.js';

/** The shared fixtures (src/einvoice/fixtures.ts) plus this suite's own cases. */
const CASES: InvoiceCase[] = [
  ...OWN_CASES,
  ...EINVOICE_FIXTURES.map((f) => ({ ...f, name: `fixture-${f.name}` })),
];

const COMBOS: { standard: Standard; profile: Profile }[] = [
  ...(['minimum', 'basic-wl', 'basic', 'en16931', 'extended'] as const).map((profile) => ({
    standard: 'factur-x' as const,
    profile,
  })),
  ...(['minimum', 'basic-wl', 'basic', 'en16931', 'extended', 'xrechnung'] as const).map((profile) => ({
    standard: 'zugferd' as const,
    profile,
  })),
  { standard: 'xrechnung-cii', profile: 'xrechnung' },
  { standard: 'xrechnung-ubl', profile: 'xrechnung' },
  // Extensions: Peppol BIS Billing 3.0 and plain EN 16931 in both syntaxes.
  { standard: 'peppol', profile: 'en16931' },
  { standard: 'en16931-ubl', profile: 'en16931' },
  { standard: 'en16931-cii', profile: 'en16931' },
];

/** BT-24 the validator reads from each output: the profile's for Factur-X/ZUGFeRD/XRechnung, else the standard's. */
function expectedGuideline(standard: Standard, profile: Profile): string {
  if (standard === 'peppol') return PEPPOL_BIS_3_ID;
  if (standard === 'en16931-ubl' || standard === 'en16931-cii') return EN16931_ID;
  return GUIDELINE[profile] ?? '';
}

/** The validator's profile for the extension standards: what it detected from BT-24 selects its schematrons. */
const VALIDATOR_PROFILE: Partial<Record<Standard, string>> = {
  peppol: 'peppol',
  'en16931-ubl': 'en16931',
  'en16931-cii': 'en16931',
};

/** The invoice sent for a standard: Peppol gets the case's Peppol form (endpoints with Peppol schemes). */
function invoiceFor(standard: Standard, c: InvoiceCase): Record<string, unknown> | undefined {
  return standard === 'peppol' ? peppolVariant(c.invoice) : c.invoice;
}

type Json = Record<string, unknown>;

/** Moves the seller to `country`, with `changes` to its fields and address (undefined removes a field). */
function seller(inv: Json, country: string, changes: Json, address: Json = {}): void {
  const s = inv.seller as Json;
  const merged: Json = {
    ...s,
    ...changes,
    address: { ...(s.address as Json), ...address, country_code: country },
  };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  const addr = merged.address as Json;
  for (const [k, v] of Object.entries(addr)) if (v === undefined) delete addr[k];
  inv.seller = merged;
}

interface PeppolDefect {
  name: string;
  rule: string;
  path: string;
  change: (inv: Json) => void;
}

/** A seller of `country` (with `changes`) without the street line that country's rule requires. */
function noStreet(country: string, rule: string, changes: Json): PeppolDefect {
  return {
    name: `${country.toLowerCase()}-no-street`,
    rule,
    path: 'seller.address.line1',
    change: (inv) => seller(inv, country, changes, { line1: undefined }),
  };
}

/** A seller of `country` (VAT id `vatId`) without the legal registration id (BT-30) that country's rule requires. */
function noRegistration(name: string, country: string, rule: string, vatId: string): PeppolDefect {
  return {
    name,
    rule,
    path: 'seller.legal_registration_id',
    change: (inv) => seller(inv, country, { vat_id: vatId, legal_registration_id: undefined }),
  };
}

/**
 * Defects Quire refuses for `peppol` before writing, each with the OpenPeppol rule that names it. The test
 * writes the same defective invoice anyway (prepared as en16931-ubl, which has no Peppol rules, then written
 * with Peppol's identifiers) and checks the official Peppol schematron fails it with that same rule id.
 */
const PEPPOL_DEFECTS: PeppolDefect[] = [
  {
    name: 'no-buyer-endpoint',
    rule: 'PEPPOL-EN16931-R010',
    path: 'buyer.electronic_address',
    change: (inv) => delete (inv.buyer as Json).electronic_address,
  },
  {
    name: 'email-endpoint',
    rule: 'PEPPOL-EN16931-CL008',
    path: 'seller.electronic_address.scheme',
    change: (inv) =>
      Object.assign(inv.seller as Json, { electronic_address: { value: 'ap@seller.example' } }),
  },
  {
    name: 'bad-gln',
    rule: 'PEPPOL-COMMON-R040',
    path: 'buyer.electronic_address.value',
    change: (inv) =>
      Object.assign(inv.buyer as Json, { electronic_address: { value: '4000001123453', scheme: '0088' } }),
  },
  {
    name: 'no-references',
    rule: 'PEPPOL-EN16931-R003',
    path: 'buyer_reference',
    change: (inv) => delete inv.buyer_reference,
  },
  {
    name: 'self-billed',
    rule: 'PEPPOL-EN16931-P0100',
    path: 'type_code',
    change: (inv) => Object.assign(inv, { type_code: '389' }),
  },
  {
    name: 'corrected-abroad',
    rule: 'PEPPOL-EN16931-P0112',
    path: 'type_code',
    change: (inv) => Object.assign(inv, { type_code: '384' }),
  },
  {
    name: 'two-notes',
    rule: 'PEPPOL-EN16931-R002',
    path: 'notes',
    change: (inv) => Object.assign(inv, { notes: ['a', 'b'] }),
  },
  {
    name: 'std',
    rule: 'PEPPOL-EN16931-CL007',
    path: 'currency',
    change: (inv) => Object.assign(inv, { currency: 'STD' }),
  },
  {
    name: 'withdrawn-eas',
    rule: 'PEPPOL-EN16931-CL008',
    path: 'buyer.electronic_address.scheme',
    change: (inv) =>
      Object.assign(inv.buyer as Json, { electronic_address: { value: '12345678', scheme: '0037' } }),
  },
  {
    name: 'bad-dk-p-number',
    rule: 'PEPPOL-COMMON-R052',
    path: 'buyer.electronic_address.value',
    change: (inv) =>
      Object.assign(inv.buyer as Json, { electronic_address: { value: '12345', scheme: '0096' } }),
  },
  {
    name: 'no-mandate',
    rule: 'PEPPOL-EN16931-R061',
    path: 'payment.mandate_reference',
    change: (inv) =>
      Object.assign(inv, {
        payment: { means_code: '49', debited_iban: 'DE89370400440532013000', due_date: '2025-07-05' },
      }),
  },
  {
    name: 'line-period',
    rule: 'PEPPOL-EN16931-R110',
    path: 'lines[0].period.start',
    change: (inv) => {
      inv.billing_period = { start: '2025-05-01', end: '2025-05-31' };
      Object.assign((inv.lines as Json[])[0] as Json, { period: { start: '2025-04-20', end: '2025-05-10' } });
    },
  },
  // National rules, each for a seller of that country (the rest of the invoice unchanged).
  {
    name: 'no-vat-format',
    rule: 'NO-R-001',
    path: 'seller.vat_id',
    change: (inv) => seller(inv, 'NO', { vat_id: 'NO923609017MVA' }),
  },
  noRegistration('dk-no-cvr', 'DK', 'DK-R-002', 'DK13585628'),
  noStreet('IT', 'IT-R-002', { vat_id: 'IT12345678901', tax_number: undefined }),
  {
    name: 'se-rate',
    rule: 'SE-R-006',
    path: 'lines[0].vat.rate',
    change: (inv) => {
      seller(inv, 'SE', {
        vat_id: 'SE556036079301',
        legal_registration_id: '5560360793',
        tax_number: 'Godkänd för F-skatt',
      });
      Object.assign((inv.lines as Json[])[0] as Json, { vat: { category: 'S', rate: 19 } });
      delete inv.tax_exemptions;
    },
  },
  noRegistration('is-no-kennitala', 'IS', 'IS-R-002', 'IS12345'),
  noStreet('NL', 'NL-R-002', { vat_id: 'NL123456789B01', legal_registration_id: undefined }),
  {
    name: 'vatex-mismatch',
    rule: 'PEPPOL-EN16931-P0104',
    path: 'tax_exemptions.AE.code',
    change: (inv) => Object.assign(inv, { tax_exemptions: { AE: { reason: 'Export', code: 'VATEX-EU-G' } } }),
  },
];

/** Sellers of the countries with national Peppol rules, meeting them: accepted, and passing the official rules. */
const PEPPOL_NATIONAL_SELLERS: { name: string; change: (inv: Json) => void }[] = [
  { name: 'no', change: (inv) => seller(inv, 'NO', { vat_id: 'NO923609016MVA' }) },
  {
    name: 'dk',
    change: (inv) =>
      seller(inv, 'DK', {
        vat_id: 'DK13585628',
        legal_registration_id: '13585628',
        legal_registration_scheme: '0184',
      }),
  },
  {
    name: 'it',
    change: (inv) => seller(inv, 'IT', { vat_id: 'IT12345678901', tax_number: 'RSSMRA80A01H501U' }),
  },
  {
    name: 'se',
    change: (inv) =>
      seller(inv, 'SE', {
        vat_id: 'SE556036079301',
        legal_registration_id: '5560360793',
        tax_number: 'Godkänd för F-skatt',
      }),
  },
  {
    name: 'is',
    change: (inv) =>
      seller(inv, 'IS', {
        vat_id: 'IS12345',
        legal_registration_id: '5902697199',
        legal_registration_scheme: '0196',
      }),
  },
  {
    name: 'nl',
    change: (inv) =>
      seller(inv, 'NL', {
        vat_id: 'NL123456789B01',
        legal_registration_id: '12345678',
        legal_registration_scheme: '0106',
      }),
  },
];

/** The official Peppol BIS 3.0.19 examples and their broken variants, shipped with the validator. */
const PEPPOL_SAMPLES = path.join(path.dirname(VALIDATOR), 'samples', 'peppol');

const GUIDELINE: Partial<Record<Profile, string>> = {
  minimum: 'urn:factur-x.eu:1p0:minimum',
  'basic-wl': 'urn:factur-x.eu:1p0:basicwl',
  basic: 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic',
  en16931: 'urn:cen.eu:en16931:2017',
  extended: 'urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended',
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
};

const FX_LEVEL: Partial<Record<Profile, string>> = {
  minimum: 'MINIMUM',
  'basic-wl': 'BASIC WL',
  basic: 'BASIC',
  en16931: 'EN 16931',
  extended: 'EXTENDED',
  xrechnung: 'XRECHNUNG',
};

/** SPEC: prepaid is not in minimum; rounding only in en16931, extended and xrechnung. */
function applies(c: InvoiceCase, profile: Profile): boolean {
  if (c.prepaid && profile === 'minimum') return false;
  if (c.rounding && !['en16931', 'extended', 'xrechnung'].includes(profile)) return false;
  return true;
}

interface Output {
  file: string;
  kind: 'xml' | 'pdf';
  standard: Standard;
  profile: Profile;
  caseName: string;
  xml: string;
  prepared: PreparedEInvoice;
}

interface Issue {
  path: string;
  message: string;
}

interface Skipped {
  standard: Standard;
  caseName: string;
  invoice: Record<string, unknown>;
}

/** An XML amount as the readable invoice may print it: 1.234,56 or 1,234.56 (written independently of src). */
function printedForms(value: string): string[] {
  const [int = '0', frac = '00'] = value.replace('-', '').split('.');
  const sign = value.startsWith('-') ? '-' : '';
  const group = (sep: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  return [`${sign}${group('.')},${frac}`, `${sign}${group(',')}.${frac}`];
}

function xmlValue(xml: string, element: string): string {
  const m = new RegExp(`<ram:${element}[^>]*>([^<]+)</ram:${element}>`).exec(xml);
  assert.ok(m?.[1], `${element} in the XML`);
  return m[1];
}

describe('e-invoice output against the official validators', { timeout: 170_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-einvoice-out-'));
  const outputs: Output[] = [];
  /** Scenarios a standard has no form for (Peppol: self-billing), checked to be refused instead. */
  const skipped: Skipped[] = [];
  const defects: (PeppolDefect & { file: string; issues: Issue[] })[] = [];
  const liquidWarnings: string[] = [];
  // The official examples of the release in force (3.0.21).
  const samples = readdirSync(path.join(PEPPOL_SAMPLES, '3.0.21'))
    .filter((f) => f.endsWith('.xml'))
    .map((f) => path.join(PEPPOL_SAMPLES, '3.0.21', f));
  const broken = readdirSync(path.join(PEPPOL_SAMPLES, 'broken')).map((f) =>
    path.join(PEPPOL_SAMPLES, 'broken', f),
  );
  let reports: Map<string, ValidatorReport>;

  before(async () => {
    for (const { standard, profile } of COMBOS) {
      for (const c of CASES.filter((x) => applies(x, profile))) {
        const invoice = invoiceFor(standard, c);
        if (!invoice) {
          skipped.push({ standard, caseName: c.name, invoice: c.invoice });
          continue;
        }
        const prepared = prepareCase(standard, profile, invoice);
        const xml = XML_STANDARDS[standard] === 'ubl' ? buildUbl(prepared) : buildCii(prepared, profile);
        const file = path.join(dir, `${standard}_${profile}_${c.name}.xml`);
        writeFileSync(file, xml);
        outputs.push({ file, kind: 'xml', standard, profile, caseName: c.name, xml, prepared });
      }
    }
    const crossBorder = OWN_CASES.find((c) => c.name === 'reverse-charge-eur-fr');
    assert.ok(crossBorder);
    for (const defect of PEPPOL_DEFECTS) {
      const invoice = peppolVariant(crossBorder.invoice) as Json;
      defect.change(invoice);
      const refused = validateEInvoice({ standard: 'peppol', invoice });
      const prepared = prepareCase('en16931-ubl', 'en16931', invoice);
      const file = path.join(dir, `peppol-defect_${defect.name}.xml`);
      writeFileSync(file, buildUbl({ ...prepared, standard: 'peppol' }));
      defects.push({ ...defect, file, issues: refused.ok ? [] : (refused.error.details?.issues as Issue[]) });
    }
    for (const national of PEPPOL_NATIONAL_SELLERS) {
      const invoice = peppolVariant(crossBorder.invoice) as Json;
      national.change(invoice);
      const prepared = prepareCase('peppol', 'en16931', invoice);
      const file = path.join(dir, `peppol_en16931_national-${national.name}.xml`);
      const xml = buildUbl(prepared);
      writeFileSync(file, xml);
      outputs.push({
        file,
        kind: 'xml',
        standard: 'peppol',
        profile: 'en16931',
        caseName: `national-${national.name}`,
        xml,
        prepared,
      });
    }
    const renderStart = Date.now();
    const harness = await InvoicePdfHarness.start();
    try {
      const pdfJobs = COMBOS.filter((x) => x.standard === 'factur-x' || x.standard === 'zugferd').flatMap(
        (combo) =>
          CASES.filter((c) => applies(c, combo.profile))
            .filter((_c, i) => i === 0 || (combo.standard === 'factur-x' && combo.profile === 'en16931'))
            .map((c) => ({ ...combo, c })),
      );
      for (const [i, { standard, profile, c }] of pdfJobs.entries()) {
        const prepared = prepareCase(standard, profile, c.invoice);
        // Every third PDF as from a test key: the watermark must not break PDF/A (drawn with an embedded font).
        const out = await harness.facturX(prepared, profile, i % 3 === 0);
        for (const w of out.liquidWarnings) liquidWarnings.push(`${c.name}: ${JSON.stringify(w)}`);
        const file = path.join(dir, `${standard}_${profile}_${c.name}.pdf`);
        writeFileSync(file, out.pdf);
        outputs.push({ file, kind: 'pdf', standard, profile, caseName: c.name, xml: out.xml, prepared });
      }
    } finally {
      await harness.close();
    }
    console.log(
      `rendered ${outputs.filter((o) => o.kind === 'pdf').length} PDFs in ${Date.now() - renderStart} ms`,
    );
    const started = Date.now();
    reports = await validateFiles(
      [...outputs.map((o) => o.file), ...defects.map((d) => d.file), ...samples, ...broken],
      { reproducible: true },
    );
    console.log(`validated ${outputs.length} files in ${Date.now() - started} ms`);
  });

  after(() =>
    process.env.QUIRE_KEEP_EINVOICE_OUTPUT ? undefined : rmSync(dir, { recursive: true, force: true }),
  );

  it('covers every standard × profile with XML and every Factur-X/ZUGFeRD profile with a PDF', () => {
    for (const { standard, profile } of COMBOS) {
      const xmls = outputs.filter(
        (o) => o.kind === 'xml' && o.standard === standard && o.profile === profile,
      );
      assert.ok(xmls.length >= CASES.length - 4, `${standard}/${profile}: ${xmls.length} XMLs`);
      if (standard === 'factur-x' || standard === 'zugferd') {
        assert.ok(outputs.some((o) => o.kind === 'pdf' && o.standard === standard && o.profile === profile));
      }
    }
  });

  it('every XML and PDF passes with zero errors and emits only elements its profile allows', () => {
    const failures = outputs.flatMap((o) => {
      const report = reports.get(o.file);
      if (!report) return [`${path.basename(o.file)}: no report`];
      const found = problems(report);
      return report.status === 'PASS' && found.length === 0
        ? []
        : [`${path.basename(o.file)} (${report.status}):\n  ${found.join('\n  ')}`];
    });
    assert.deepEqual(failures, []);
  });

  it('declares the profile’s guideline identifier and document type', () => {
    for (const o of outputs) {
      const report = reports.get(o.file);
      assert.equal(report?.xml?.guidelineId, expectedGuideline(o.standard, o.profile), o.file);
      const validatorProfile = VALIDATOR_PROFILE[o.standard];
      if (validatorProfile) assert.equal(report?.xml?.profile, validatorProfile, o.file);
      const ubl = CREDIT_NOTE_TYPE_CODES.has(o.prepared.invoice.type_code) ? 'UBL-CreditNote' : 'UBL-Invoice';
      assert.equal(report?.xml?.syntax, XML_STANDARDS[o.standard] === 'ubl' ? ubl : 'CII', o.file);
    }
    const ubl = outputs.filter((o) => o.standard === 'xrechnung-ubl');
    assert.match(ubl.find((o) => o.caseName === 'credit-note')?.xml ?? '', /<ubl:CreditNote /);
    assert.match(ubl.find((o) => o.caseName === 'self-billed')?.xml ?? '', /<ubl:Invoice /);
    assert.match(
      ubl[0]?.xml ?? '',
      /<cbc:ProfileID>urn:fdc:peppol\.eu:2017:poacc:billing:01:1\.0<\/cbc:ProfileID>/,
    );
  });

  it('writes lines from BASIC up only, and user text escaped', () => {
    for (const o of outputs.filter((x) => x.kind === 'xml' && XML_STANDARDS[x.standard] !== 'ubl')) {
      const hasLines = o.xml.includes('<ram:IncludedSupplyChainTradeLineItem>');
      assert.equal(hasLines, !['minimum', 'basic-wl'].includes(o.profile), o.file);
    }
    const rich = outputs.find((o) => o.profile === 'en16931' && o.caseName === 'standard-rich');
    assert.match(rich?.xml ?? '', /Vertrauen &lt;3/);
  });

  it('embeds the XML as a PDF/A-3b associated file with the Factur-X XMP of its profile', () => {
    for (const o of outputs.filter((x) => x.kind === 'pdf')) {
      const r = reports.get(o.file);
      const name = o.profile === 'xrechnung' ? 'xrechnung.xml' : 'factur-x.xml';
      assert.equal(r?.xmp?.pdfaid, '3b', o.file);
      assert.equal(r?.xmp?.fxConformanceLevel, FX_LEVEL[o.profile], o.file);
      assert.equal(r?.xmp?.fxDocumentFileName, name, o.file);
      assert.equal(r?.xmp?.fxVersion, o.profile === 'xrechnung' ? '3.0' : '1.0', o.file);
      const rel = ['minimum', 'basic-wl'].includes(o.profile) ? '/Data' : '/Alternative';
      assert.deepEqual(r?.pdf?.attachments, [
        { name, AFRelationship: rel, mime: '/text/xml', inCatalogAF: true },
      ]);
    }
  });

  it('prints the XML’s grand total and amount due in the readable PDF', async () => {
    for (const o of outputs.filter((x) => x.kind === 'pdf')) {
      const words = await pdfWords(readFileSync(o.file));
      const currency = o.prepared.invoice.currency;
      const grand = printedForms(xmlValue(o.xml, 'GrandTotalAmount')).map((a) => `${a} ${currency}`);
      const due = printedForms(xmlValue(o.xml, 'DuePayableAmount')).map((a) => `${a} ${currency}`);
      const grandRows = rowValues(words, 'Gesamtbetrag / Total', currency);
      // The totals table and the payment box (when there is one) both state the amount due.
      const dueRows = rowValues(words, 'Zahlbetrag / Amount due', currency);
      assert.equal(grandRows.length, 1, o.file);
      assert.equal(dueRows.length, o.prepared.invoice.payment ? 2 : 1, o.file);
      for (const row of grandRows) assert.ok(grand.includes(row), `${o.file}: total ${row}, XML ${grand[0]}`);
      for (const row of dueRows) assert.ok(due.includes(row), `${o.file}: due ${row}, XML ${due[0]}`);
    }
  });

  it('validates Peppol outputs with the Peppol schematron and EN 16931 outputs with the CEN rules only', () => {
    const checks = (standard: Standard) =>
      new Set(
        outputs
          .filter((o) => o.standard === standard)
          .flatMap((o) => reports.get(o.file)?.xml?.checks?.map((c) => c.name) ?? []),
      );
    assert.ok(checks('peppol').has('PEPPOL-EN16931-UBL'), [...checks('peppol')].join(', '));
    assert.ok(checks('peppol').has('EN16931-UBL'));
    assert.deepEqual(
      [...checks('en16931-ubl')].filter((c) => /PEPPOL|XRechnung/i.test(c)),
      [],
    );
    assert.ok(checks('en16931-ubl').has('EN16931-UBL'));
    assert.ok(checks('en16931-cii').has('EN16931-CII'));
  });

  it('refuses the scenarios Peppol BIS has no form for, naming the rule', () => {
    assert.deepEqual(
      skipped.map((s) => `${s.standard}:${s.caseName}`),
      ['peppol:self-billed', 'peppol:fixture-self-billed-389'],
    );
    for (const s of skipped) {
      const result = validateEInvoice({ standard: s.standard, invoice: s.invoice });
      assert.ok(!result.ok, s.caseName);
      assert.match(JSON.stringify(result.error.details), /type_code.*PEPPOL-EN16931-P0100/);
    }
  });

  it('refuses Peppol defects with the rule id the official Peppol schematron reports for the same XML', () => {
    for (const d of defects) {
      const official = (reports.get(d.file)?.findings ?? [])
        .filter((f) => f.severity === 'error')
        .map((f) => f.id);
      assert.ok(official.includes(d.rule), `${d.name}: official validator reported ${official.join(', ')}`);
      const mine = d.issues.find((i) => i.path === `e_invoice.invoice.${d.path}`);
      assert.ok(mine, `${d.name}: Quire's issues ${JSON.stringify(d.issues)}`);
      assert.ok(mine.message.includes(d.rule), `${d.name}: ${mine.message}`);
    }
  });

  it('the official Peppol examples pass and their broken variants fail with the official rule ids', () => {
    assert.equal(samples.length, 10);
    for (const file of samples) {
      const report = reports.get(file);
      assert.equal(report?.status, 'PASS', `${file}: ${report ? problems(report).join('; ') : 'no report'}`);
      assert.equal(report?.xml?.profile, 'peppol', file);
    }
    const failedRules = (name: string) =>
      (reports.get(broken.find((f) => f.endsWith(name)) ?? '')?.findings ?? [])
        .filter((f) => f.severity === 'error')
        .map((f) => f.id);
    assert.deepEqual(failedRules('base-example.no-buyer-endpoint.xml'), ['PEPPOL-EN16931-R010']);
    assert.deepEqual(failedRules('base-creditnote-correction.changed-total.xml').sort(), [
      'BR-CO-15',
      'BR-CO-16',
    ]);
  });

  it('gives the built-in template every variable it prints', () => {
    assert.deepEqual(liquidWarnings, []);
  });
});
