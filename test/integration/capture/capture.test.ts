import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pdfText } from '../../helpers/pdf.js';
import { api, type TestServer, type TestTeam } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { createTemplate, waitForBatch } from '../batches/helpers.js';
import { type TestServer as PageServer, RED_PNG, serverWithPages } from '../render/helpers.js';

/** A script that adds `text` in an element with `id` after `ms` milliseconds. */
const later = (id: string, text: string, ms: number) =>
  `<script>setTimeout(() => { const p = document.createElement('p'); p.id = '${id}'; p.textContent = '${text}'; document.body.append(p); }, ${ms});</script>`;

const RENDER_LIMIT_MS = 8000;

describe('source_url and wait_for (extension)', () => {
  let pages: PageServer;
  let server: TestServer;
  let team: TestTeam;
  serverWithPages(
    {
      '/report': (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!DOCTYPE html><html><head><title>Quarterly Report Q3</title></head><body><h1>Intranet report</h1><img src="red.png" onload="document.body.append('IMAGE LOADED')"></body></html>`,
          ),
      '/late': (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<html><head><title>Late</title></head><body><p>early</p>${later('late', 'ARRIVED LATE', 700)}</body></html>`,
          ),
      '/red.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(RED_PNG),
      '/slow-text': (_req, res) => {
        setTimeout(
          () =>
            res
              .writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
              .end('FETCHED AFTER A WHILE'),
          800,
        );
      },
      '/moved': (_req, res) => res.writeHead(302, { location: 'http://localhost:1/report' }).end(),
    },
    'growth',
    { renderTimeoutMs: RENDER_LIMIT_MS },
    (all) => ({ pages, server, team } = all),
  );

  const pdf = (body: Record<string, unknown>) =>
    api(server.base, 'POST', '/v1/pdf', { key: team.live, body });

  it('refuses a loopback source_url the operator did not name (private_address)', async () => {
    const r = await pdf({ source_url: `http://localhost:${pages.port}/report` });
    assert.equal(r.status, 400, r.text);
    const error = (r.json as { error: { code: string; details: { field: string; reason: string } } }).error;
    assert.equal(error.code, 'invalid_request');
    assert.deepEqual(error.details, { field: 'source_url', reason: 'private_address' });
    assert.ok(!pages.hits.includes('/report'), 'nothing was fetched');
  });

  it('renders the same page once QUIRE_URL_ALLOW_HOSTS names its host:port; the title names the file', async () => {
    const r = await pdf({ source_url: `${pages.origin}/report` });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.get('content-disposition'), 'attachment; filename="Quarterly-Report-Q3.pdf"');
    const text = await pdfText(r.buffer);
    assert.match(text, /Intranet report/);
    assert.match(text, /IMAGE LOADED/, 'the relative image came from the allowed host');
    assert.equal(r.headers.get('x-blocked-resources'), '0');
  });

  it('a queued source_url document is named after the page title too, with wait_for kept', async () => {
    const queued = await pdf({
      source_url: `${pages.origin}/late`,
      wait_for: { selector: '#late' },
      async: true,
    });
    assert.equal(queued.status, 202, queued.text);
    const id = (queued.json as { id: string }).id;
    const doc = await waitFor('the background source_url render', async () => {
      const r = await api(server.base, 'GET', `/v1/pdf/${id}`, { key: team.live });
      const json = r.json as { status: string; url: string };
      return json.status === 'succeeded' || json.status === 'failed' ? json : null;
    });
    assert.equal(doc.status, 'succeeded');
    const download = await fetch(doc.url);
    assert.match(download.headers.get('content-disposition') ?? '', /filename="Late\.pdf"/);
    const file = Buffer.from(await download.arrayBuffer());
    assert.match(await pdfText(file), /ARRIVED LATE/);
  });

  it('checks every redirect of a source_url again', async () => {
    const r = await pdf({ source_url: `${pages.origin}/moved` });
    assert.equal(r.status, 400, r.text);
    const error = (r.json as { error: { details: { reason: string } } }).error;
    assert.equal(error.details.reason, 'private_address');
  });

  it('refuses other schemes, and a source_url together with html', async () => {
    const scheme = await pdf({ source_url: 'file:///etc/passwd' });
    assert.equal(scheme.status, 400);
    assert.deepEqual((scheme.json as { error: { details: unknown } }).error.details, {
      field: 'source_url',
      reason: 'scheme',
    });
    const both = await pdf({ source_url: `${pages.origin}/report`, html: '<p>x</p>' });
    assert.equal(both.status, 400);
    assert.deepEqual((both.json as { error: { details: unknown } }).error.details, { field: 'html' });
  });

  it('without wait_for the late content is missing; wait_for.selector waits for it', async () => {
    const plain = await pdf({ source_url: `${pages.origin}/late` });
    assert.equal(plain.status, 200, plain.text);
    assert.doesNotMatch(await pdfText(plain.buffer), /ARRIVED LATE/);
    const waited = await pdf({ source_url: `${pages.origin}/late`, wait_for: { selector: '#late' } });
    assert.equal(waited.status, 200, waited.text);
    assert.match(await pdfText(waited.buffer), /ARRIVED LATE/);
  });

  it('wait_for.expression waits until the expression over the DOM is truthy (html)', async () => {
    const r = await pdf({
      html: `<p>start</p>${later('done', 'EXPRESSION MET', 600)}`,
      wait_for: { expression: "document.getElementById('done') !== null" },
    });
    assert.equal(r.status, 200, r.text);
    assert.match(await pdfText(r.buffer), /EXPRESSION MET/);
  });

  it('wait_for.network_idle waits for a request still running after the load', async () => {
    const r = await pdf({
      html: `<p>start</p><script>fetch('${pages.origin}/slow-text').then((r) => r.text()).then((t) => document.body.append(t));</script>`,
      wait_for: { network_idle: true },
    });
    assert.equal(r.status, 200, r.text);
    assert.match(await pdfText(r.buffer), /FETCHED AFTER A WHILE/);
  });

  it('a wait that never comes ends in render_timeout within the limit, naming what it waited for', async () => {
    const started = Date.now();
    const r = await pdf({ html: '<p>never ready</p>', wait_for: { selector: '.chart-ready' } });
    const elapsed = Date.now() - started;
    assert.equal(r.status, 504, r.text);
    const error = (r.json as { error: { code: string; message: string } }).error;
    assert.equal(error.code, 'render_timeout');
    assert.match(error.message, /\.chart-ready/);
    assert.ok(elapsed < RENDER_LIMIT_MS + 20_000, `answered after ${elapsed} ms`);
    const short = await pdf({ html: '<p>x</p>', wait_for: { expression: 'false', timeout_ms: 500 } });
    assert.equal(short.status, 504, short.text);
    assert.match((short.json as { error: { message: string } }).error.message, /expression "false"/);
  });

  it('a template batch passes wait_for to every item', async () => {
    const template = await createTemplate(
      server.base,
      team.live,
      `<p>Item {{ n }}</p>${later('drawn', 'DRAWN {{ n }}', 500)}`,
    );
    const created = await api(server.base, 'POST', '/v1/batches', {
      key: team.live,
      body: {
        template_id: template,
        items: [{ data: { n: 1 } }, { data: { n: 2 } }],
        wait_for: { selector: '#drawn' },
      },
    });
    assert.equal(created.status, 202, created.text);
    const batchId = (created.json as { id: string }).id;
    await waitForBatch(server.base, team.live, batchId);
    const items = await api(server.base, 'GET', `/v1/batches/${batchId}/items`, { key: team.live });
    const data = (items.json as { data: Array<{ status: string; document_url: string }> }).data;
    assert.equal(data.length, 2);
    for (const [i, item] of data.entries()) {
      assert.equal(item.status, 'succeeded');
      const file = Buffer.from(await (await fetch(item.document_url)).arrayBuffer());
      assert.match(await pdfText(file), new RegExp(`DRAWN ${i + 1}`));
    }
    const empty = await api(server.base, 'POST', '/v1/batches', {
      key: team.live,
      body: { template_id: template, items: [{ data: { n: 1 } }], wait_for: {} },
    });
    assert.equal(empty.status, 400, empty.text);
    assert.deepEqual((empty.json as { error: { details: unknown } }).error.details, { field: 'wait_for' });
  });

  it('page errors become script_error warnings in x-warnings', async () => {
    const r = await pdf({
      html: `<p>ok</p><script>console.error('chart failed: no data'); missingFunction();</script>`,
    });
    assert.equal(r.status, 200, r.text);
    const warnings = JSON.parse(r.headers.get('x-warnings') ?? '[]') as Array<{
      code: string;
      message: string;
    }>;
    const scriptErrors = warnings.filter((w) => w.code === 'script_error');
    assert.equal(scriptErrors.length, 2, JSON.stringify(warnings));
    assert.match(scriptErrors[0]?.message ?? '', /chart failed: no data/);
    assert.match(scriptErrors[1]?.message ?? '', /missingFunction is not defined/);
  });

  it('reports at most 10 script errors', async () => {
    const r = await pdf({ html: `<script>for (let i = 0; i < 25; i++) console.error('e' + i);</script>` });
    assert.equal(r.status, 200, r.text);
    const warnings = JSON.parse(r.headers.get('x-warnings') ?? '[]') as Array<{ code: string }>;
    assert.equal(warnings.filter((w) => w.code === 'script_error').length, 10);
  });
});
