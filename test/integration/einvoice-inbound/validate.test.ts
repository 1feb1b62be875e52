import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodePDFRawStream, PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { validateFiles } from '../einvoice/validator.js';

const SAMPLES = path.resolve('tools/einvoice-validate/samples');
const sample = (...parts: string[]) => path.join(SAMPLES, ...parts);
const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');

describe('POST /v1/e-invoices/validate: the official rules in process', () => {
  let server: TestServer;
  let key = '';
  let calls = 0;
  before(async () => {
    // The suite shares a small machine with other processes (load far above its cores): the product's
    // 10 s per file would then measure the machine, not the file. Limits are exercised in fuzz.test.ts.
    server = await startTestServer({ einvoiceCheckTimeoutMs: 120_000 });
  });
  after(async () => {
    await server.close();
  });

  /** Checks are budgeted like previews (30 per minute per team and mode): a fresh team every 25 calls. */
  async function validate(bytes: Buffer | string, filename: string, profile?: string) {
    if (calls++ % 25 === 0) key = (await server.team('growth')).live;
    return api(server.base, 'POST', '/v1/e-invoices/validate', {
      key,
      body: { filename, content_base64: b64(bytes), ...(profile ? { profile } : {}) },
    });
  }

  async function validateFile(file: string, profile?: string) {
    const response = await validate(readFileSync(file), path.basename(file), profile);
    assert.equal(response.status, 200, `${path.basename(file)}: ${response.text}`);
    return response.json;
  }

  const errorRules = (report: { errors: { rule: string }[] }) => report.errors.map((e) => e.rule).sort();

  it('every official Peppol BIS Billing 3.0.21 example is valid, checked with the CEN 1.3.16 and OpenPeppol 3.0.21 rules', async () => {
    const examples = readdirSync(sample('peppol', '3.0.21')).filter((f) => f.endsWith('.xml'));
    assert.equal(examples.length, 10);
    for (const file of examples) {
      const report = await validateFile(sample('peppol', '3.0.21', file));
      assert.deepEqual(report.errors, [], file);
      assert.equal(report.valid, true, file);
      assert.equal(report.syntax, 'ubl');
      assert.equal(report.standard, 'peppol');
      assert.equal(report.profile, 'peppol');
      assert.match(report.guideline_id, /poacc:billing:3\.0$/);
      assert.deepEqual(report.rules, [
        { name: 'OASIS UBL schema', version: '2.1' },
        { name: 'CEN EN 16931 validation artefacts', version: '1.3.16' },
        { name: 'OpenPeppol BIS Billing 3.0', version: '3.0.21' },
      ]);
    }
  });

  it('broken Peppol variants fail with the rule ids the official validator reports', async () => {
    const noEndpoint = await validateFile(sample('peppol', 'broken', 'base-example.no-buyer-endpoint.xml'));
    assert.equal(noEndpoint.valid, false);
    assert.deepEqual(errorRules(noEndpoint), ['PEPPOL-EN16931-R010']);
    assert.match(noEndpoint.errors[0].message, /Buyer electronic address MUST be provided/);
    assert.match(noEndpoint.errors[0].location, /AccountingCustomerParty/);

    const wrongTotal = await validateFile(
      sample('peppol', 'broken', 'base-creditnote-correction.changed-total.xml'),
    );
    assert.deepEqual(errorRules(wrongTotal), ['BR-CO-15', 'BR-CO-16']);
  });

  it('a Peppol BIS ProfileID with a plain EN 16931 CustomizationID is checked with the Peppol rules: R004', async () => {
    // Peppol's billing process in BT-23, plain EN 16931 in BT-24: Peppol's validators apply the Peppol rules.
    const wrongId = await validateFile(sample('peppol', 'broken', 'base-example.wrong-customization-id.xml'));
    assert.equal(wrongId.valid, false);
    assert.deepEqual(errorRules(wrongId), ['PEPPOL-EN16931-R004']);
    assert.equal(wrongId.profile, 'peppol');
    assert.equal(wrongId.standard, 'peppol');
    assert.equal(wrongId.guideline_id, 'urn:cen.eu:en16931:2017');
    assert.ok(wrongId.rules.some((r: { version: string }) => r.version === '3.0.21'));
    // The reference validator picks by BT-24 only; asked for the Peppol rules, it reports the same.
    const file = sample('peppol', 'broken', 'base-example.wrong-customization-id.xml');
    const official = (await validateFiles([file], { profile: 'peppol' })).get(file);
    assert.ok(official);
    assert.equal(official.status, 'FAIL');
    assert.ok(official.findings.some((f) => f.id === 'PEPPOL-EN16931-R004'));
    // Release 3.0.21's R004 also refuses a doubled colon after the Peppol prefix.
    const xml = readFileSync(sample('peppol', '3.0.21', 'base-example.xml'), 'utf8');
    const doubled = await validate(
      xml.replace('poacc:billing:3.0</cbc:CustomizationID>', 'poacc:billing:3.0::x</cbc:CustomizationID>'),
      'doubled.xml',
    );
    assert.deepEqual(errorRules(doubled.json), ['PEPPOL-EN16931-R004'], doubled.text);
  });

  it('`profile` checks a document as another profile than it declares', async () => {
    const xml = readFileSync(sample('peppol', 'base-example.xml'), 'utf8');
    const plain = xml
      .replace(
        'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
        'urn:cen.eu:en16931:2017',
      )
      .replace(/<cbc:ProfileID>[^<]*<\/cbc:ProfileID>/, '');
    const asDeclared = await validate(plain, 'plain.xml');
    assert.equal(asDeclared.json.profile, 'en16931');
    assert.equal(asDeclared.json.standard, 'en16931-ubl');
    assert.deepEqual(asDeclared.json.rules, [
      { name: 'OASIS UBL schema', version: '2.1' },
      { name: 'CEN EN 16931 validation artefacts', version: '1.3.16' },
    ]);
    const asPeppol = await validate(plain, 'plain.xml', 'peppol');
    assert.equal(asPeppol.json.profile, 'peppol');
    assert.ok(errorRules(asPeppol.json).includes('PEPPOL-EN16931-R004'), asPeppol.text);
    const cii = await validate(readFileSync(sample('xml', 'cen_CII_example1.xml')), 'cii.xml', 'peppol');
    assert.equal(cii.status, 400);
    assert.equal(cii.json.error.code, 'invalid_request');
    assert.match(cii.json.error.message, /UBL only/);
  });

  it('a Factur-X PDF whose XML was changed is invalid with BR-CO-15; the untouched one is valid with its PDF facts', async () => {
    const good = await validateFile(sample('pdf', 'zf24_EN16931_Einfach_fx.pdf'));
    assert.equal(good.valid, true, JSON.stringify(good.errors));
    assert.equal(good.standard, 'factur-x');
    assert.equal(good.profile, 'en16931');
    assert.equal(good.pdf.pdf_a.declared, '3b');
    assert.equal(good.pdf.attachment.name, 'factur-x.xml');
    assert.equal(good.pdf.attachment.associated, true);
    assert.equal(good.pdf.attachment.conformance_level, 'EN 16931');

    const changed = await validateFile(sample('broken', 'zf24_EN16931_Einfach_fx.changed-total.pdf'));
    assert.equal(changed.valid, false);
    // CEN's rules and Factur-X 1.09.2's (whose compiled rules report the EN 16931 rule ids) both fail it.
    assert.deepEqual(errorRules(changed), ['BR-CO-15', 'BR-CO-15', 'BR-CO-16', 'BR-CO-16']);
    assert.deepEqual(changed.rules, [
      { name: 'CEN EN 16931 validation artefacts', version: '1.3.16' },
      { name: 'Factur-X / ZUGFeRD', version: '1.09.2' },
    ]);
  });

  it('a Factur-X PDF whose XMP declares another profile than its XML fails FX-XMP', async () => {
    const doc = await PDFDocument.load(readFileSync(sample('pdf', 'zf24_EN16931_Einfach_fx.pdf')), {
      updateMetadata: false,
    });
    const stream = doc.catalog.lookup(PDFName.of('Metadata'));
    assert.ok(stream instanceof PDFRawStream);
    const xmp = Buffer.from(decodePDFRawStream(stream).decode()).toString('utf8');
    const changed = xmp.replace(/EN 16931/g, 'EXTENDED');
    assert.notEqual(changed, xmp);
    const metadata = doc.context.stream(changed, { Type: 'Metadata', Subtype: 'XML' });
    doc.catalog.set(PDFName.of('Metadata'), doc.context.register(metadata));
    const report = await validate(Buffer.from(await doc.save()), 'swapped.pdf');
    assert.equal(report.status, 200, report.text);
    assert.equal(report.json.pdf.attachment.conformance_level, 'EXTENDED');
    assert.ok(errorRules(report.json).includes('FX-XMP'), report.text);
  });

  it('gives the same verdict and error rule ids as the official validator on the sample set', async () => {
    const files = [
      sample('xml', 'cen_CII_example1.xml'),
      sample('xml', 'cen_ubl-tc434-example1.xml'),
      sample('xml', 'cen_ubl-tc434-creditnote1.xml'),
      sample('xml', 'kosit_01.01a-INVOICE_ubl.xml'),
      sample('xml', 'kosit_01.01a-INVOICE_uncefact.xml'),
      sample('xml', 'zf24_MINIMUM_Rechnung.xml'),
      sample('xml', 'zf24_BASIC-WL_Einfach.xml'),
      sample('xml', 'zf24_BASIC_Einfach.xml'),
      sample('xml', 'zf24_EN16931_Rabatte.xml'),
      sample('xml', 'zf24_EXTENDED_Warenrechnung.xml'),
      sample('xml', 'kosit_ext_04.05a-INVOICE_uncefact.xml'),
      sample('pdf', 'zf24_XRECHNUNG_Einfach_fx.pdf'),
      sample('broken', 'kosit_01.01a-INVOICE_ubl.changed-payable.xml'),
      sample('broken', 'kosit_01.01a-INVOICE_uncefact.no-buyer-reference.xml'),
      sample('broken', 'zf24_EN16931_Einfach.changed-total.xml'),
      sample('broken', 'zf24_MINIMUM_Rechnung.xsd-invalid.xml'),
    ];
    // A document in Peppol's billing process (BT-23) is checked with the Peppol rules (CEN's credit note
    // example is one); the reference validator picks by BT-24 only, so it is asked for them.
    const peppolProcess = (file: string) =>
      /<cbc:ProfileID>urn:fdc:peppol\.eu:2017:poacc:billing:01:1\.0</.test(readFileSync(file, 'latin1')) &&
      !/xrechnung/.test(readFileSync(file, 'latin1'));
    const reference = new Map([
      ...(await validateFiles(
        files.filter((f) => !peppolProcess(f)),
        { reproducible: true },
      )),
      ...(await validateFiles(files.filter(peppolProcess), { reproducible: true, profile: 'peppol' })),
    ]);
    for (const file of files) {
      const official = reference.get(file);
      assert.ok(official, file);
      const ours = await validateFile(file);
      const name = path.basename(file);
      // The official validator also runs PDF/A checks Quire does not (veraPDF-like); compare the XML rules.
      const officialRules = official.findings
        .filter((f) => f.severity === 'error' && (f.source === 'XSD' || /^[A-Z]/.test(f.id ?? '')))
        .filter(
          (f) => !/^PDF|^FX-(PDF|XMP)|PDFA/.test(f.source) && !/^PDFA|^XMP|^FX-PDF|^INFO/.test(f.id ?? ''),
        )
        .map((f) => (f.source === 'XSD' ? 'XSD' : (f.id as string)))
        .sort();
      const ourRules = errorRules(ours).filter((rule) => !/^PDFA|^FX-XMP/.test(rule));
      assert.deepEqual(ourRules, officialRules, `${name}: ${JSON.stringify(ours.errors).slice(0, 1500)}`);
      assert.equal(ours.valid, official.status === 'PASS', name);
      // SaxonJS stops in the Factur-X EXTENDED rules on this sample (docs/e-invoices.md: Known limits); said, not hidden.
      if (name === 'zf24_EXTENDED_Warenrechnung.xml')
        assert.ok(ours.warnings.some((w: { rule: string }) => w.rule === 'SCHEMATRON-NOT-RUN'));
    }
  });

  it('a file that is not an e-invoice is invalid_request saying what was found', async () => {
    const cases: Array<[string, Buffer | string, RegExp]> = [
      ['data.json', '{"invoice": 1}', /JSON/],
      ['notes.txt', 'hello', /neither XML nor a PDF/],
      ['other.xml', '<html><body/></html>', /root element .*html.*neither a CII/],
      [
        'broken.xml',
        '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID>',
        /not well-formed/,
      ],
      ['entity.xml', '<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>', /DOCTYPE/],
      [
        'plain.pdf',
        '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF',
        /no embedded files|could not be read/,
      ],
    ];
    for (const [filename, bytes, message] of cases) {
      const response = await validate(bytes, filename);
      assert.equal(response.status, 400, `${filename}: ${response.text}`);
      assert.equal(response.json.error.code, 'invalid_request');
      assert.equal(response.json.error.details.field, 'content_base64');
      assert.match(response.json.error.message, message, filename);
    }
    const notBase64 = await api(server.base, 'POST', '/v1/e-invoices/validate', {
      key,
      body: { filename: 'x.xml', content_base64: '***' },
    });
    assert.equal(notBase64.status, 400);
    assert.equal(notBase64.json.error.details.field, 'content_base64');
  });
});
