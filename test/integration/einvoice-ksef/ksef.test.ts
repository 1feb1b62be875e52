import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KSEF_FIXTURES } from '../../../src/einvoice/ksef/fixtures.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { validateFiles } from '../einvoice/validator.js';

const SAMPLES = path.resolve('tools/einvoice-validate/samples/ksef-fa3');
const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');
const FA3_RULES = [{ name: 'KSeF FA(3) schema (Ministry of Finance, Poland)', version: '1-0E' }];

/**
 * The generation time (DataWytworzeniaFa) is the one part of Quire's FA(3) that differs between runs: fixed
 * here, so the official validator's report of each file is read from its snapshot (validator.ts).
 */
const pinned = (xml: string) =>
  xml.replace(
    /<DataWytworzeniaFa>[^<]*<\/DataWytworzeniaFa>/,
    '<DataWytworzeniaFa>2026-03-03T08:00:00Z</DataWytworzeniaFa>',
  );

describe('KSeF FA(3) over HTTP: generate, validate, parse', () => {
  let server: TestServer;
  let key = '';
  let calls = 0;
  const outDir = mkdtempSync(path.join(tmpdir(), 'quire-ksef-'));
  before(async () => {
    // A shared, loaded machine: the product's 10 s per received file would measure the machine, not the file.
    server = await startTestServer({ einvoiceCheckTimeoutMs: 120_000 });
  });
  after(async () => {
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  /** Checks are budgeted (30 a minute per team and mode): a fresh team every 25 calls. */
  async function keyFor(): Promise<string> {
    if (calls++ % 25 === 0) key = (await server.team('growth')).live;
    return key;
  }
  const generate = async (invoice: unknown) =>
    api(server.base, 'POST', '/v1/pdf', {
      key: await keyFor(),
      body: { e_invoice: { standard: 'ksef', invoice } },
    });
  const send = async (route: 'validate' | 'parse', filename: string, bytes: Buffer | string) => {
    const r = await api(server.base, 'POST', `/v1/e-invoices/${route}`, {
      key: await keyFor(),
      body: { filename, content_base64: b64(bytes) },
    });
    assert.equal(r.status, 200, `${filename}: ${r.text.slice(0, 400)}`);
    return r.json;
  };

  it('every scenario (VAT and KOR) is FA(3) XML that the official schema and validator accept, and parses back to its invoice', async () => {
    const files: string[] = [];
    for (const [i, fixture] of KSEF_FIXTURES.entries()) {
      const r = await generate(fixture.invoice);
      assert.equal(r.status, 200, `${fixture.name}: ${r.text.slice(0, 400)}`);
      assert.equal(r.headers.get('content-type'), 'application/xml');
      assert.equal(r.headers.get('x-e-invoice'), 'ksef/fa3');
      assert.match(r.text, /<Faktura xmlns="http:\/\/crd\.gov\.pl\/wzor\/2025\/06\/25\/13775\/"/);
      assert.match(r.text, new RegExp(`<RodzajFaktury>${i >= 6 ? 'KOR' : 'VAT'}</RodzajFaktury>`));

      const report = await send('validate', 'faktura.xml', r.buffer);
      assert.deepEqual(report.errors, [], fixture.name);
      assert.deepEqual(
        [report.valid, report.syntax, report.standard, report.profile, report.guideline_id],
        [true, 'ksef', 'ksef', 'fa3', 'FA (3) 1-0E'],
      );
      assert.deepEqual(report.rules, FA3_RULES);

      const parsed = await send('parse', 'faktura.xml', r.buffer);
      assert.deepEqual([parsed.standard, parsed.profile, parsed.warnings], ['ksef', 'fa3', []]);
      // Generated again from what was read: the same document, but for the generation time.
      const again = await generate(parsed.invoice);
      assert.equal(again.status, 200, again.text.slice(0, 400));
      assert.equal(pinned(again.text), pinned(r.text), fixture.name);

      const file = path.join(outDir, `ksef-${i}.xml`);
      writeFileSync(file, pinned(r.text));
      files.push(file);
    }
    // The independent reference validator (Java, official XSD through its XML catalog) agrees.
    const reports = await validateFiles(files, { profile: 'ksef-fa3' });
    for (const file of files) {
      const report = reports.get(file);
      assert.equal(
        report?.status,
        'PASS',
        `${path.basename(file)}: ${JSON.stringify(report?.findings).slice(0, 600)}`,
      );
    }
  });

  it('a missing seller NIP and other Polish fields are invalid_e_invoice with their paths', async () => {
    const invoice = KSEF_FIXTURES[0]?.invoice as Record<string, unknown>;
    const seller = { ...(invoice.seller as Record<string, unknown>), vat_id: undefined };
    const r = await generate({ ...invoice, seller, currency: 'EUR', ksef: undefined });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.code, 'invalid_e_invoice');
    const paths = r.json.error.details.issues.map((i: { path: string }) => i.path);
    assert.ok(paths.includes('e_invoice.invoice.seller.vat_id'), String(paths));
    assert.ok(paths.includes('e_invoice.invoice.ksef.exchange_rate'), String(paths));
  });

  it("the Ministry's official samples are valid; broken variants fail with the schema's errors", async () => {
    const samples = readdirSync(SAMPLES).filter((f) => f.endsWith('.xml'));
    assert.ok(samples.length >= 4, String(samples));
    for (const file of samples) {
      const report = await send('validate', file, readFileSync(path.join(SAMPLES, file)));
      assert.deepEqual(report.errors, [], file);
      assert.deepEqual([report.valid, report.standard, report.rules], [true, 'ksef', FA3_RULES], file);
      const parsed = await send('parse', file, readFileSync(path.join(SAMPLES, file)));
      assert.equal(parsed.standard, 'ksef');
      assert.ok(parsed.invoice.lines.length > 0, file);
    }
    const badNip = await send(
      'validate',
      'bad-nip.xml',
      readFileSync(path.join(SAMPLES, 'broken', 'filled-invoice-template_v3.bad-nip.xml')),
    );
    assert.equal(badNip.valid, false);
    assert.deepEqual(
      badNip.errors.map((e: { rule: string }) => e.rule),
      ['XSD'],
    );
    assert.match(badNip.errors[0].message, /NIP.*'0265877635' is not accepted by the pattern/);
    assert.match(badNip.errors[0].location, /^line \d+$/);
    const noNumber = await send(
      'validate',
      'no-number.xml',
      readFileSync(path.join(SAMPLES, 'broken', 'filled-invoice-template_v3.no-invoice-number.xml')),
    );
    assert.equal(noNumber.valid, false);
    assert.match(noNumber.errors[0].message, /P_6.*not expected.*P_2/);
  });

  it('an FA(2) document is refused with a message naming FA(3)', async () => {
    const fa2 =
      '<?xml version="1.0"?><Faktura xmlns="http://crd.gov.pl/wzor/2023/06/29/12648/"><Naglowek/></Faktura>';
    const r = await api(server.base, 'POST', '/v1/e-invoices/validate', {
      key: await keyFor(),
      body: { filename: 'fa2.xml', content_base64: b64(fa2) },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.code, 'invalid_request');
    assert.match(r.json.error.message, /FA\(2\).*FA\(3\)/);
  });
});
