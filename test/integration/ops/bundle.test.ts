import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { EINVOICE_FIXTURES } from '../../fixtures/einvoice-fixtures.js';
import { pdfInfo, pdfText } from '../../helpers/pdf.js';
import { api } from '../../helpers/server.js';
import { problems, validateFiles } from '../einvoice/validator.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

/**
 * The server bundle (scripts/bundle.mjs → dist/server/) is what `npm start` and the image run, while
 * the other tests run the sources through tsx. Bundling moves modules into other files, so everything
 * found relative to a module's own file is checked here: the version (package.json), the Liquid worker
 * thread, the Paged.js polyfill (resolved from node_modules), the PDF/A colour profile, the dashboard
 * build and the API docs, and the modules loaded on first use (e-invoice output, print mode).
 */
describe('the server bundle that npm start runs', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-bundle-'));
  let server: ChildProcess;
  let base = '';
  let key = '';

  before(async () => {
    await run(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')], { cwd: root });
    const { QUIRE_FROM_SOURCE: _fromSource, ...env } = process.env;
    server = spawn(process.execPath, [path.join(root, 'bin', 'quire.mjs'), 'serve'], {
      env: { ...env, QUIRE_DATA_DIR: dataDir, QUIRE_PORT: '0', QUIRE_LOG_LEVEL: 'warn', QUIRE_WORKERS: '0' },
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the bundle did not start: ${out}`)), 90_000);
      server.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /serving (http:\/\/[^\s]+)\/v1/.exec(out);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      server.once('exit', (code) => reject(new Error(`the bundle exited (${code}): ${out}`)));
    });
    key = /Live key: (qk_live_\w+)/.exec(out)?.[1] ?? '';
    assert.ok(key, out);
  });
  after(async () => {
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
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
