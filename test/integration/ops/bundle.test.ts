import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { EINVOICE_FIXTURES } from '../../fixtures/einvoice-fixtures.js';
import { pdfInfo, pdfText } from '../../helpers/pdf.js';
import {
  bundleIsCurrent,
  kill,
  OWN_CHROMIUM,
  SERVING,
  type Started,
  startQuire,
} from '../../helpers/quire-process.js';
import { api } from '../../helpers/server.js';
import { problems, validateFiles } from '../einvoice/validator.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

/**
 * The server bundle (scripts/bundle.mjs → dist/server/) is what `npm start` and the image run (and the
 * processes tests start, when it is current). Bundling moves modules into other files, so everything found
 * relative to a module's own file is checked here: the version (package.json), the Liquid worker thread, the
 * Paged.js polyfill (resolved from node_modules), the PDF/A colour profile, the dashboard build and the API
 * docs, and the modules loaded on first use (e-invoice output, print mode).
 */
describe('the server bundle that npm start runs', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-bundle-'));
  let server: Started;
  let base = '';
  let key = '';

  before(async () => {
    // The bootstrap's bundle (npm test runs it first); rebuilt here only when a source is newer.
    if (!bundleIsCurrent())
      await run(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')], { cwd: root });
    server = startQuire(
      {
        QUIRE_FROM_SOURCE: '0',
        QUIRE_DATA_DIR: dataDir,
        QUIRE_DATABASE_URL: '',
        QUIRE_WORKERS: '0',
        // The bundle as deployed: it launches its own Chromium.
        ...OWN_CHROMIUM,
      },
      ['serve'],
      SERVING,
    );
    base = (await server.ready)[1] as string;
    key = /Live key: (qk_live_\w+)/.exec(server.output())?.[1] ?? '';
    assert.ok(key, server.output());
  });
  after(async () => {
    if (server) await kill(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is what the tests’ own quire processes run after the bootstrap (else each loads the sources through tsx)', {
    skip: process.env.CI !== 'true' && 'CI only: elsewhere a source may be edited after the bootstrap',
  }, () => {
    // Read before `before` rebuilt anything (the answer is kept): the compiled test mirror once made every
    // check say "stale", and every spawned quire ran from source at about 2 s more CPU each.
    assert.equal(bundleIsCurrent(), true, 'the bootstrap built dist/server; no source is newer');
  });

  it('runs from dist/server and reports the package version', async () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    const version = await api(base, 'GET', '/version');
    assert.equal(version.status, 200);
    assert.equal(version.json.version, pkg.version);
  });

  it('renders a Liquid template with data in the worker thread', async () => {
    const res = await api(base, 'POST', '/v1/pdf', {
      key,
      body: {
        html: '<h1>Invoice {{ number }}</h1><p>{{ total | money: "EUR" }}</p>',
        data: { number: 'B-17', total: 1234.5 },
      },
    });
    assert.equal(res.status, 200, res.text);
    const text = await pdfText(res.buffer);
    assert.match(text, /Invoice B-17/);
    assert.match(text, /1,234\.50/);
  });

  it('lays out running headers with the Paged.js polyfill in print mode', async () => {
    const html = readFileSync(path.join(root, 'test', 'fixtures', 'print', 'invoice-running.html'), 'utf8');
    const res = await api(base, 'POST', '/v1/pdf', { key, body: { html, mode: 'print' } });
    assert.equal(res.status, 200, res.text);
    const info = await pdfInfo(res.buffer);
    assert.equal(info.pages, 3);
    assert.match(await pdfText(res.buffer, 3), /Northwind Digital GmbH[\s\S]*Page 3 of 3/);
  });

  it('makes a Factur-X PDF/A-3b that passes the official validator', async () => {
    const fixture = EINVOICE_FIXTURES.find((x) => x.name === 'two-rates-allowances-prepaid');
    assert.ok(fixture);
    const e_invoice = { standard: 'factur-x', profile: 'en16931', invoice: fixture.invoice };
    const res = await api(base, 'POST', '/v1/pdf', { key, body: { e_invoice } });
    assert.equal(res.status, 200, res.text);
    const file = path.join(dataDir, 'factur-x.pdf');
    writeFileSync(file, res.buffer);
    const report = (await validateFiles([file])).get(file);
    assert.ok(report, 'no validator report');
    assert.deepEqual(problems(report), []);
    assert.equal(report.status, 'PASS');
  });

  it('serves the dashboard and the API docs', async () => {
    const app = await fetch(`${base}/app/`);
    assert.equal(app.status, 200);
    assert.match(await app.text(), /<div id="root"/);
    const docs = await fetch(`${base}/docs`);
    assert.equal(docs.status, 200);
  });
});
