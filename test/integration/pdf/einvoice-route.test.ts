import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../../src/shared/clock.js';
import { EINVOICE_FIXTURES, peppolVariant } from '../../fixtures/einvoice-fixtures.js';
import { pdfText } from '../../helpers/pdf.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { validateFiles } from '../einvoice/validator.js';

const fixture = EINVOICE_FIXTURES.find((f) => f.name === 'two-rates-allowances-prepaid');
if (!fixture) throw new Error('fixture missing');
const invoice = fixture.invoice as Record<string, unknown>;
/** The same invoice with Peppol endpoints (its e-mail endpoints have no Peppol scheme). */
const peppolInvoice = peppolVariant(invoice);
if (!peppolInvoice) throw new Error('fixture has no Peppol form');

describe('POST /pdf with e_invoice', () => {
  let server: TestServer;
  let keys: { live: string; test: string };
  const outDir = mkdtempSync(path.join(tmpdir(), 'quire-einv-route-'));
  before(async () => {
    // A fixed clock makes each PDF the same bytes in every run, so the official validator's report of it is
    // read from its snapshot instead of starting the JVM (validator.ts).
    server = await startTestServer({}, { clock: new ManualClock(Date.UTC(2025, 5, 5, 8)) });
    keys = await server.team('growth');
  });
  after(async () => {
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('returns validator-clean Factur-X, ZUGFeRD, XRechnung, Peppol and EN 16931 output with the spec headers, counted once each', async () => {
    const cases = [
      { standard: 'factur-x', profile: 'en16931', file: 'fx-en16931.pdf', key: keys.live },
      { standard: 'factur-x', profile: 'basic-wl', file: 'fx-basicwl.pdf', key: keys.live },
      { standard: 'zugferd', profile: 'xrechnung', file: 'zf-xrechnung.pdf', key: keys.test },
      { standard: 'xrechnung-cii', profile: 'xrechnung', file: 'xr-cii.xml', key: keys.live },
      { standard: 'xrechnung-ubl', profile: 'xrechnung', file: 'xr-ubl.xml', key: keys.live },
      // Extensions: the XML itself, like XRechnung.
      { standard: 'peppol', profile: 'en16931', file: 'peppol.xml', key: keys.live },
      { standard: 'en16931-ubl', profile: 'en16931', file: 'en-ubl.xml', key: keys.live },
      { standard: 'en16931-cii', profile: 'en16931', file: 'en-cii.xml', key: keys.live },
    ];
    const files: string[] = [];
    for (const c of cases) {
      const sent = c.standard === 'peppol' ? peppolInvoice : invoice;
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: c.key,
        body: { e_invoice: { standard: c.standard, profile: c.profile, invoice: sent } },
      });
      assert.equal(r.status, 200, `${c.file}: ${r.text.slice(0, 300)}`);
      assert.equal(r.headers.get('x-e-invoice'), `${c.standard}/${c.profile}`);
      const xml = c.file.endsWith('.xml');
      assert.equal(r.headers.get('content-type'), xml ? 'application/xml' : 'application/pdf');
      assert.equal(
        r.headers.get('content-disposition'),
        `attachment; filename="R-2025-0101.${xml ? 'xml' : 'pdf'}"`,
      );
      const file = path.join(outDir, c.file);
      writeFileSync(file, r.buffer);
      files.push(file);
      if (!xml) assert.match(await pdfText(r.buffer), /R-2025-0101/);
    }
    const reports = await validateFiles(files, { reproducible: true });
    for (const file of files) {
      const report = reports.get(file);
      assert.equal(
        report?.status,
        'PASS',
        `${path.basename(file)}: ${JSON.stringify(report?.findings.filter((f) => f.severity === 'error')).slice(0, 800)}`,
      );
    }
    // The validator picked the Peppol schematron from the CustomizationID Quire wrote.
    const peppolChecks = reports.get(path.join(outDir, 'peppol.xml'))?.xml?.checks?.map((c) => c.name);
    assert.ok(peppolChecks?.includes('PEPPOL-EN16931-UBL'), String(peppolChecks));
    const usage = await api(server.base, 'GET', '/v1/account/usage', { key: keys.live });
    assert.equal(
      usage.json.docs_used,
      7,
      'every live e-invoice is one counted document; the test one is not',
    );
  });

  it('answers url responses with e_invoice and stores the XML for XRechnung', async () => {
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: keys.live,
      body: { response: 'url', filename: 'rechnung 1', e_invoice: { standard: 'xrechnung-cii', invoice } },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.e_invoice, {
      standard: 'xrechnung-cii',
      profile: 'xrechnung',
      xml_filename: 'R-2025-0101.xml',
    });
    assert.equal(r.json.filename, 'rechnung-1.xml');
    const file = await fetch(r.json.url);
    assert.equal(file.headers.get('content-type'), 'application/xml');
    assert.match(await file.text(), /CrossIndustryInvoice/);
  });

  it('GET /v1/e-invoices/example (extension): an invoice every listed standard turns out without a warning, with its form fields', async () => {
    const example = await api(server.base, 'GET', '/v1/e-invoices/example', { key: keys.test });
    assert.equal(example.status, 200, example.text);
    const paths = example.json.fields.fields.map((f: { path: string }) => f.path);
    for (const p of ['number', 'seller.name', 'buyer.address.city', 'payment.iban', 'lines'])
      assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
    const files: string[] = [];
    for (const standard of example.json.valid_for as string[]) {
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: keys.test,
        body: { e_invoice: { standard, invoice: example.json.invoice } },
      });
      assert.equal(r.status, 200, `${standard}: ${r.text.slice(0, 300)}`);
      const file = path.join(
        outDir,
        `example-${standard}.${r.headers.get('content-type')?.includes('xml') ? 'xml' : 'pdf'}`,
      );
      writeFileSync(file, r.buffer);
      files.push(file);
    }
    const reports = await validateFiles(files, { reproducible: true });
    for (const file of files) {
      const report = reports.get(file);
      assert.equal(report?.status, 'PASS', path.basename(file));
      assert.deepEqual(
        report?.findings.filter((f) => f.severity !== 'info').map((f) => f.id ?? f.text),
        [],
        `${path.basename(file)}: no warnings`,
      );
    }
  });

  it('rejects invalid invoices with invalid_e_invoice paths before rendering or counting', async () => {
    const t = await server.team('growth');
    const lines = (invoice.lines as Array<Record<string, unknown>>).map((l, i) =>
      i === 1 ? { ...l, vat: { category: 'S', rate: -5 } } : l,
    );
    const bad = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { e_invoice: { standard: 'factur-x', invoice: { ...invoice, lines, currency: 'EURO' } } },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.code, 'invalid_e_invoice');
    const paths = bad.json.error.details.issues.map((i: { path: string }) => i.path);
    assert.ok(paths.includes('e_invoice.invoice.currency'), paths.join(', '));
    assert.ok(
      paths.some((p: string) => p.startsWith('e_invoice.invoice.lines[1].vat')),
      paths.join(', '),
    );
    const unknown = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { e_invoice: { standard: 'ebinterface', invoice } },
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.error.code, 'invalid_request');
    assert.match(unknown.json.error.message, /peppol, en16931-ubl, en16931-cii/);
    // Peppol's own rules come back in the same shape, with the official rule id in the message.
    const notPeppol = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { e_invoice: { standard: 'peppol', invoice } },
    });
    assert.equal(notPeppol.status, 400);
    assert.equal(notPeppol.json.error.code, 'invalid_e_invoice');
    assert.deepEqual(
      notPeppol.json.error.details.issues.map((i: { path: string }) => i.path),
      ['e_invoice.invoice.seller.electronic_address.scheme'],
    );
    assert.match(notPeppol.json.error.details.issues[0].message, /PEPPOL-EN16931-CL008/);
    const deliver = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: {
        e_invoice: { standard: 'peppol', invoice: peppolInvoice },
        deliver: { email: { to: 'a@example.com' } },
      },
    });
    assert.equal(deliver.status, 400);
    assert.equal(deliver.json.error.code, 'invalid_request');
    const wrongProfile = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { e_invoice: { standard: 'factur-x', profile: 'xrechnung', invoice } },
    });
    assert.equal(wrongProfile.json.error.code, 'invalid_e_invoice');
    const asyncBad = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { async: true, e_invoice: { standard: 'factur-x', invoice: { ...invoice, lines: [] } } },
    });
    assert.equal(asyncBad.status, 400);
    assert.equal(asyncBad.json.error.code, 'invalid_e_invoice');
    assert.equal((await api(server.base, 'GET', '/v1/documents', { key: t.live })).json.data.length, 0);
  });
});
