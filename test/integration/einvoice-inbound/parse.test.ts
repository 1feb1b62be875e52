import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EINVOICE_FIXTURES } from '../../fixtures/einvoice-fixtures.js';
import { quire as runQuire } from '../../helpers/quire-process.js';
import { noise, randomJson, rng } from '../../helpers/random.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';

const SAMPLES = path.resolve('tools/einvoice-validate/samples');
const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');
const sample = (...parts: string[]) => readFileSync(path.join(SAMPLES, ...parts));

describe('POST /v1/e-invoices/parse, the CLI, and hostile bodies', () => {
  let server: TestServer;
  before(async () => {
    // The suite shares a small machine with other processes (load far above its cores): the product's
    // 10 s per file would then measure the machine, not the file. Limits are exercised in fuzz.test.ts.
    server = await startTestServer({ einvoiceCheckTimeoutMs: 120_000 });
  });
  after(async () => {
    await server.close();
  });

  /** One file to POST /v1/e-invoices/parse or /validate, as the dashboard and clients send it. */
  const sendFile = (route: 'parse' | 'validate', key: string, filename: string, bytes: Buffer) =>
    api(server.base, 'POST', `/v1/e-invoices/${route}`, {
      key,
      body: { filename, content_base64: b64(bytes) },
    });

  it('reads a Peppol invoice into the model; generating from it gives an XRechnung that validates', async () => {
    const t = await server.team('growth');
    const parsed = await sendFile('parse', t.live, 'base-example.xml', sample('peppol', 'base-example.xml'));
    assert.equal(parsed.status, 200, parsed.text);
    assert.equal(parsed.json.standard, 'peppol');
    assert.equal(parsed.json.profile, 'en16931');
    assert.equal(parsed.json.invoice.number, 'Snippet1');
    assert.equal(parsed.json.invoice.currency, 'EUR');
    assert.equal(parsed.json.invoice.seller.electronic_address.scheme, '0088');
    assert.equal(parsed.json.invoice.lines.length, 2);
    assert.equal(parsed.json.totals.due_payable, '1656.25');

    // The KoSIT XRechnung UBL example, read and generated again by POST /v1/pdf, passes the official rules.
    const kosit = await sendFile('parse', t.live, 'kosit.xml', sample('xml', 'kosit_01.01a-INVOICE_ubl.xml'));
    assert.equal(kosit.status, 200, kosit.text);
    assert.equal(kosit.json.standard, 'xrechnung-ubl');
    const generated = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { e_invoice: { standard: 'xrechnung-ubl', profile: 'xrechnung', invoice: kosit.json.invoice } },
    });
    assert.equal(generated.status, 200, generated.text);
    const check = await sendFile('validate', t.live, 'again.xml', generated.buffer);
    assert.equal(check.status, 200, check.text);
    assert.deepEqual(check.json.errors, []);
    assert.equal(check.json.valid, true);
  });

  it('a Factur-X PDF made by POST /v1/pdf reads back as the invoice it was made from', async () => {
    const t = await server.team('growth');
    const fixture = EINVOICE_FIXTURES[0];
    assert.ok(fixture);
    const pdf = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { e_invoice: { standard: 'factur-x', profile: 'en16931', invoice: fixture.invoice } },
    });
    assert.equal(pdf.status, 200, pdf.text);
    const parsed = await sendFile('parse', t.live, 'made.pdf', pdf.buffer);
    assert.equal(parsed.status, 200, parsed.text);
    assert.equal(parsed.json.standard, 'factur-x');
    assert.equal(parsed.json.profile, 'en16931');
    const sent = fixture.invoice as { number: string; lines: unknown[]; seller: { name: string } };
    assert.equal(parsed.json.invoice.number, sent.number);
    assert.equal(parsed.json.invoice.seller.name, sent.seller.name);
    assert.equal(parsed.json.invoice.lines.length, sent.lines.length);
    const validated = await sendFile('validate', t.live, 'made.pdf', pdf.buffer);
    assert.equal(validated.status, 200, validated.text);
    assert.deepEqual(validated.json.errors, []);
    assert.equal(validated.json.pdf.pdf_a.declared, '3b');
  });

  it('random bodies get 400 invalid_request, never a 500', async () => {
    const t = await server.team('growth');
    const r = rng(Number(process.env.QUIRE_PROPERTY_SEED ?? 28));
    for (let run = 0; run < 40; run++) {
      const body =
        run % 2 === 0
          ? randomJson(r, 0, ['filename', 'content_base64', 'profile'])
          : {
              filename: 'x.xml',
              content_base64: b64(noise(r, 1, 500)),
            };
      const route = run % 3 === 0 ? '/v1/e-invoices/parse' : '/v1/e-invoices/validate';
      const response = await api(server.base, 'POST', route, { key: t.live, body });
      assert.equal(response.status, 400, `run ${run}: ${response.text}`);
      assert.equal(response.json.error.code, 'invalid_request', `run ${run}: ${response.text}`);
    }
  });

  it('checks are budgeted like previews: the 31st in a minute is rate_limited', async () => {
    const t = await server.team('growth');
    const body = { filename: 'x.txt', content_base64: b64('not an invoice') };
    for (let i = 0; i < 30; i++) {
      const response = await api(server.base, 'POST', '/v1/e-invoices/validate', { key: t.live, body });
      assert.equal(response.status, 400, response.text);
    }
    const over = await api(server.base, 'POST', '/v1/e-invoices/validate', { key: t.live, body });
    assert.equal(over.status, 429, over.text);
    assert.equal(over.json.error.code, 'rate_limited');
  });

  it('quire einvoice validate prints JSON and exits 1 on an invalid file; parse prints the model', async () => {
    const broken = path.join(SAMPLES, 'peppol', 'broken', 'base-example.no-buyer-endpoint.xml');
    const good = path.join(SAMPLES, 'peppol', 'base-example.xml');
    const invalid = await runQuire({}, 'einvoice', 'validate', good, broken);
    assert.equal(invalid.code, 1, invalid.stderr);
    const reports = JSON.parse(invalid.stdout) as { valid: boolean; errors: { rule: string }[] }[];
    assert.deepEqual(
      reports.map((r) => [r.valid, r.errors.map((e) => e.rule)]),
      [
        [true, []],
        [false, ['PEPPOL-EN16931-R010']],
      ],
    );
    const valid = await runQuire({}, 'einvoice', 'validate', good);
    assert.equal(valid.code, 0, valid.stderr);
    const parsed = await runQuire({}, 'einvoice', 'parse', good);
    assert.equal(parsed.code, 0, parsed.stderr);
    assert.equal(JSON.parse(parsed.stdout).invoice.number, 'Snippet1');
    const usage = await runQuire({}, 'einvoice', 'parse');
    assert.equal(usage.code, 2);
  });
});
