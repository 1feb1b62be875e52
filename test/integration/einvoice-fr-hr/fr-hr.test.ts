import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  FR_B2B_INVOICE,
  FR_CREDIT_NOTE,
  FR_INVOICE,
  HR_INVOICE,
} from '../../fixtures/einvoice-national-fixtures.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { problems, validateFiles } from '../einvoice/validator.js';

const SAMPLES = path.resolve('tools/einvoice-validate/samples');
const sample = (...parts: string[]) => path.join(SAMPLES, ...parts);
const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');
type Json = Record<string, unknown>;

const BR_FR = { name: 'FNFE-MPE French CTC business rules (BR-FR, Flux 2)', version: '1.4.0.03' };
const EXT_FR = { name: 'FNFE-MPE EXTENDED-CTC-FR', version: '1.4.0.03' };
const HR_RULES = [
  { name: 'OASIS UBL schema', version: '2.1' },
  { name: 'CEN EN 16931 validation artefacts', version: '1.3.16' },
  { name: 'HR-CIUS / EXT-HR 2025 (Porezna uprava, Croatia)', version: '1.0.3' },
];

/** The French and Croatian outputs: each standard with the fixtures written for it. */
const TARGETS: { standard: string; profile: string; name: string; invoice: Json; ext: string }[] = [
  ...['en16931-cii', 'en16931-ubl', 'factur-x'].flatMap((standard) =>
    [
      ['invoice', FR_INVOICE],
      ['credit-note', FR_CREDIT_NOTE],
    ].map(([name, invoice]) => ({
      standard,
      profile: 'extended-ctc-fr',
      name: `fr-${standard}-${name as string}`,
      invoice: invoice as Json,
      ext: standard === 'factur-x' ? 'pdf' : 'xml',
    })),
  ),
  ...['en16931-cii', 'en16931-ubl'].map((standard) => ({
    standard,
    profile: 'extended-ctc-fr',
    name: `fr-${standard}-b2b`,
    invoice: FR_B2B_INVOICE,
    ext: 'xml',
  })),
  { standard: 'hr-cius', profile: 'en16931', name: 'hr-invoice', invoice: HR_INVOICE, ext: 'xml' },
];

describe('France EXTENDED-CTC-FR and Croatia HR-CIUS over HTTP: generate, validate, parse', () => {
  let server: TestServer;
  let key = '';
  let calls = 0;
  const outDir = mkdtempSync(path.join(tmpdir(), 'quire-fr-hr-'));
  const outputs: { file: string; standard: string; profile: string; xml?: string }[] = [];
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
  const generate = async (standard: string, profile: string, invoice: unknown) =>
    api(server.base, 'POST', '/v1/pdf', {
      key: await keyFor(),
      body: { e_invoice: { standard, profile, invoice } },
    });
  const send = async (
    route: 'validate' | 'parse',
    filename: string,
    bytes: Buffer | string,
    profile?: string,
  ) => {
    const r = await api(server.base, 'POST', `/v1/e-invoices/${route}`, {
      key: await keyFor(),
      body: { filename, content_base64: b64(bytes), ...(profile ? { profile } : {}) },
    });
    assert.equal(r.status, 200, `${filename}: ${r.text.slice(0, 400)}`);
    return r.json;
  };
  const errorRules = (report: { errors: { rule: string }[] }) => report.errors.map((e) => e.rule).sort();

  it('every French and Croatian output passes its official rules in Quire, and parses back to the same document', async () => {
    for (const t of TARGETS) {
      const r = await generate(t.standard, t.profile, t.invoice);
      assert.equal(r.status, 200, `${t.name}: ${r.text.slice(0, 600)}`);
      const file = path.join(outDir, `${t.name}.${t.ext}`);
      writeFileSync(file, r.buffer);
      const report = await send('validate', path.basename(file), r.buffer);
      assert.deepEqual(report.errors, [], t.name);
      assert.equal(report.valid, true, t.name);
      const parsed = await send('parse', path.basename(file), r.buffer);
      if (t.standard === 'hr-cius') {
        assert.equal(report.profile, 'hr-cius');
        assert.deepEqual(report.rules, HR_RULES);
      } else {
        assert.equal(report.profile, 'fr-ctc', t.name);
        assert.equal(
          report.guideline_id,
          'urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr',
        );
        assert.ok(report.rules.some((x: Json) => x.name === BR_FR.name && x.version === BR_FR.version));
        assert.ok(report.rules.some((x: Json) => x.name === EXT_FR.name && x.version === EXT_FR.version));
        assert.equal(parsed.invoice.billing_mode, 'S1');
        assert.ok(
          parsed.invoice.notes.some((n: Json) => n.subject_code === 'PMT'),
          JSON.stringify(parsed.invoice.notes),
        );
      }
      assert.equal(parsed.standard, t.standard, t.name);
      assert.equal(parsed.profile, t.profile, t.name);
      // parse(generate(model)) generates the same XML again (a PDF: the XML it carries).
      const pdf = t.standard === 'factur-x';
      const xmlStandard = pdf ? 'en16931-cii' : t.standard;
      const original = pdf ? (await generate(xmlStandard, t.profile, t.invoice)).text : r.text;
      const again = await generate(xmlStandard, t.profile, parsed.invoice);
      assert.equal(again.status, 200, again.text.slice(0, 600));
      assert.equal(again.text, original, t.name);
      outputs.push({ file, standard: t.standard, profile: t.profile });
    }
  });

  it('the official validator (tools/einvoice-validate) agrees: every output PASSes fr-ctc or hr-cius', async () => {
    assert.equal(outputs.length, TARGETS.length);
    const xmlFiles = outputs.filter((o) => o.file.endsWith('.xml')).map((o) => o.file);
    const pdfFiles = outputs.filter((o) => o.file.endsWith('.pdf')).map((o) => o.file);
    const reports = new Map([...(await validateFiles(xmlFiles)), ...(await validateFiles(pdfFiles))]);
    for (const o of outputs) {
      const r = reports.get(o.file);
      assert.ok(r, o.file);
      assert.deepEqual(problems(r), [], path.basename(o.file));
      assert.equal(r.status, 'PASS', path.basename(o.file));
      assert.equal(r.xml?.profile, o.standard === 'hr-cius' ? 'hr-cius' : 'fr-ctc', path.basename(o.file));
    }
  });

  it('a French invoice without what the French rules need is invalid_e_invoice naming each path', async () => {
    const { billing_mode: _mode, ...withoutMode } = FR_INVOICE;
    const invoice = { ...withoutMode, notes: ['Merci.'], seller: { ...(FR_INVOICE.seller as Json) } };
    delete (invoice.seller as Json).legal_registration_id;
    delete (invoice.seller as Json).legal_registration_scheme;
    const r = await generate('factur-x', 'extended-ctc-fr', invoice);
    assert.equal(r.status, 400, r.text);
    const json = r.json as {
      error: { code: string; details: { issues: { path: string; message: string }[] } };
    };
    assert.equal(json.error.code, 'invalid_e_invoice');
    const paths = json.error.details.issues.map((i) => i.path);
    for (const p of ['billing_mode', 'notes', 'seller.legal_registration_id'])
      assert.ok(paths.includes(`e_invoice.invoice.${p}`), JSON.stringify(paths));
    assert.ok(json.error.details.issues.some((i) => /BR-FR-08/.test(i.message)));
    const hr = await generate('hr-cius', 'en16931', { ...HR_INVOICE, issue_time: undefined });
    assert.equal(hr.status, 400, hr.text);
    assert.deepEqual(
      (hr.json as { error: { details: { issues: { path: string }[] } } }).error.details.issues.map(
        (i) => i.path,
      ),
      ['e_invoice.invoice.issue_time'],
    );
  });

  it('the official FNFE-MPE example is valid; its broken variants fail with the official rule ids', async () => {
    const official = readdirSync(sample('fr-ctc')).filter((f) => f.endsWith('.xml'));
    assert.equal(official.length, 1);
    const xml = readFileSync(sample('fr-ctc', official[0] ?? ''));
    const report = await send('validate', 'facture.xml', xml);
    assert.deepEqual(report.errors, []);
    assert.equal(report.profile, 'fr-ctc');
    assert.equal(report.standard, 'factur-x');
    assert.ok(report.rules.some((x: Json) => x.name === BR_FR.name));
    const broken = (name: string) =>
      readFileSync(sample('fr-ctc', 'broken', `F20260024_BASICWL.${name}.xml`));
    assert.deepEqual(errorRules(await send('validate', 'total.xml', broken('changed-total'))), [
      'BR-CO-15',
      'BR-CO-16',
    ]);
    assert.deepEqual(errorRules(await send('validate', 'pmd.xml', broken('no-pmd-note'))), [
      'BR-FR-05_BT-22_PMD',
    ]);
    // Without BT-23 the document is not recognisably French: plain BASIC WL, unless asked for fr-ctc.
    const noMode = await send('validate', 'mode.xml', broken('no-billing-mode'));
    assert.equal(noMode.valid, true);
    assert.equal(noMode.profile, 'basic-wl');
    assert.deepEqual(errorRules(await send('validate', 'mode.xml', broken('no-billing-mode'), 'fr-ctc')), [
      'BR-FR-08_BT-23',
    ]);
    const parsed = await send('parse', 'facture.xml', xml);
    assert.equal(parsed.standard, 'factur-x');
    assert.equal(parsed.profile, 'basic-wl');
    assert.equal(parsed.invoice.billing_mode, 'S1');
    assert.deepEqual(
      parsed.invoice.notes.map((n: Json) => n.subject_code),
      ['REG', 'ABL', 'AAI', 'PMD', 'PMT', 'AAB'],
    );
  });

  it('the Tax Administration’s HR-CIUS examples are valid; the broken variants fail with the official rule ids', async () => {
    const examples = readdirSync(sample('hr-cius')).filter(
      (f) => f.startsWith('filled-') && f.endsWith('.xml'),
    );
    assert.equal(examples.length, 19);
    for (const file of examples) {
      const report = await send('validate', file, readFileSync(sample('hr-cius', file)));
      assert.deepEqual(report.errors, [], file);
      assert.equal(report.standard, 'hr-cius', file);
      assert.deepEqual(report.rules, HR_RULES, file);
    }
    const broken = (name: string) => readFileSync(sample('hr-cius', 'broken', `eRacun_PDV25.${name}.xml`));
    assert.deepEqual(errorRules(await send('validate', 'a.xml', broken('no-issue-time'))), ['HR-BR-2']);
    assert.deepEqual(errorRules(await send('validate', 'b.xml', broken('no-profile-id'))), ['HR-BR-34']);
    assert.deepEqual(errorRules(await send('validate', 'c.xml', broken('changed-payable'))), ['BR-CO-16']);
    const parsed = await send(
      'parse',
      'racun.xml',
      readFileSync(sample('hr-cius', 'filled-eRacun_PDV25.xml')),
    );
    assert.equal(parsed.standard, 'hr-cius');
    assert.equal(parsed.invoice.issue_time, '12:00:00');
    assert.deepEqual(parsed.invoice.operator, { name: 'Operater1', id: '12345678903' });
    assert.equal(parsed.invoice.billing_mode, 'P1');
    assert.equal(parsed.invoice.lines[0].classification_code, '62.20.20');
  });
});
