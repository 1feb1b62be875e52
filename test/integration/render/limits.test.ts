import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Renderer } from '../../../src/render/index.js';
import { OWN_CHROMIUM } from '../../helpers/chromium.js';
import { pdfInfo, pdfText } from '../../helpers/pdf.js';
import { waitUntil } from '../../helpers/wait.js';
import { appError, job, startRenderer } from './helpers.js';

/** Keeps the page busy for about 2 s of script, well inside the render limit. */
const BUSY_2S = '<script>const end = Date.now() + 2000; while (Date.now() < end) {}</script>';

const pagesHtml = (n: number) =>
  Array.from({ length: n }, (_, i) => `<div style="break-after:page">PAGE ${i + 1}</div>`).join('');

describe('size limits (spec POST /pdf rule 2)', () => {
  let renderer: Renderer;
  before(async () => {
    renderer = await startRenderer({ ...OWN_CHROMIUM, renderTimeoutMs: 30_000 });
  });
  after(() => renderer.close());

  it('50 pages are fine', async () => {
    const result = await renderer.render(job(pagesHtml(50)));
    assert.equal(result.pages, 50);
    assert.equal((await pdfInfo(result.pdf)).pages, 50);
  });

  it('51 pages → document_too_large', async () => {
    const err = await appError(renderer.render(job(pagesHtml(51))));
    assert.equal(err.code, 'document_too_large');
    assert.equal(err.status, 413);
  });

  it('1,000 pages → document_too_large', async () => {
    const err = await appError(renderer.render(job(pagesHtml(1000))));
    assert.equal(err.code, 'document_too_large');
  });

  it('HTML over 5 MB → document_too_large before any rendering', async () => {
    const err = await appError(renderer.render(job(`<p>${'x'.repeat(5 * 1024 * 1024)}</p>`)));
    assert.equal(err.code, 'document_too_large');
    assert.match(err.message, /5 MB/);
  });

  it('HTML and CSS together over 5 MB → document_too_large', async () => {
    const css = `/*${'c'.repeat(2 * 1024 * 1024)}*/`;
    const err = await appError(
      renderer.render(job(`<p>${'x'.repeat(3 * 1024 * 1024 + 10)}</p>`, {}, { css })),
    );
    assert.equal(err.code, 'document_too_large');
  });

  it('the pool still works after the refusals', async () => {
    assert.match(await pdfText((await renderer.render(job('<p>still fine</p>'))).pdf), /still fine/);
  });
});

describe('render time limit', () => {
  let renderer: Renderer;
  before(async () => {
    renderer = await startRenderer({ ...OWN_CHROMIUM, renderPoolSize: 1, renderTimeoutMs: 3000 });
  });
  after(() => renderer.close());

  it('while(true){} → render_timeout (504), then the next render succeeds on a fresh page', async () => {
    const err = await appError(renderer.render(job('<p>spin</p><script>while(true){}</script>')));
    assert.equal(err.code, 'render_timeout');
    assert.equal(err.status, 504);
    // The timed-out page is replaced; its replacement (not the 3 s wait for a page) is what follows.
    await renderer.settled();
    const next = await renderer.render(job('<p>after the timeout</p>'));
    assert.match(await pdfText(next.pdf), /after the timeout/);
    await renderer.settled();
    assert.deepEqual([renderer.stats().pages, renderer.stats().contexts], [1, 1]);
  });

  it('a caller that goes away aborts the render', async () => {
    const controller = new AbortController();
    const running = renderer.render(job('<script>while(true){}</script>', {}, { signal: controller.signal }));
    await waitUntil('the render to start', () => renderer.stats().busy === 1);
    controller.abort(new Error('client gone'));
    await assert.rejects(running, /client gone/);
    await renderer.settled();
    assert.match(await pdfText((await renderer.render(job('<p>after abort</p>'))).pdf), /after abort/);
  });
});

// A longer limit here: relaunching Chromium on a busy 2-core machine can take a few seconds.
describe('crashes and the wait queue', () => {
  let renderer: Renderer;
  before(async () => {
    renderer = await startRenderer({
      ...OWN_CHROMIUM,
      renderPoolSize: 1,
      renderQueueMax: 1,
      renderTimeoutMs: 20_000,
    });
  });
  after(() => renderer.close());

  it('a full wait queue → service_busy (503); queued work still finishes', async () => {
    const spinning = renderer.render(job(`${BUSY_2S}<p>first</p>`));
    await waitUntil('the first render to start', () => renderer.stats().busy === 1);
    const queued = renderer.render(job('<p>queued</p>'));
    await waitUntil('the second render to queue', () => renderer.stats().queued === 1);
    const busy = await appError(renderer.render(job('<p>one too many</p>')));
    assert.equal(busy.code, 'service_busy');
    assert.equal(busy.status, 503);
    assert.match(await pdfText((await spinning).pdf), /first/);
    assert.match(await pdfText((await queued).pdf), /queued/);
  });

  it('a killed renderer process → render_failed (422), and the pool recovers', async () => {
    const running = renderer.render(job(`${BUSY_2S}<p>x</p>`));
    await waitUntil('the render to start', () => renderer.stats().busy === 1);
    await new Promise((resolve) => setTimeout(resolve, 300)); // let the document's loop begin
    const renderers = (await renderer.supervisor.processes()).filter((p) => p.type === 'renderer');
    assert.ok(renderers.length > 0);
    for (const p of renderers) process.kill(p.pid, 'SIGKILL');
    const err = await appError(running);
    assert.equal(err.code, 'render_failed');
    assert.equal(err.status, 422);
    assert.match(await pdfText((await renderer.render(job('<p>recovered</p>'))).pdf), /recovered/);
  });

  it('a killed browser during a render → the render runs again on the relaunched Chromium', async () => {
    const pid = renderer.stats().browserPid;
    assert.ok(pid);
    const running = renderer.render(job(`${BUSY_2S}<p>survived</p>`));
    await waitUntil('the render to start', () => renderer.stats().busy === 1);
    process.kill(pid, 'SIGKILL');
    assert.match(await pdfText((await running).pdf), /survived/);
    assert.notEqual(renderer.stats().browserPid, pid);
    const next = await renderer.render(job('<p>new browser</p>'));
    assert.match(await pdfText(next.pdf), /new browser/);
  });

  // Last in this group: it leaves the renderer without a browser.
  it('once shutdown began, a killed browser is not relaunched', async () => {
    const pid = renderer.stats().browserPid;
    assert.ok(pid);
    renderer.beginShutdown();
    process.kill(pid, 'SIGKILL');
    await waitUntil('chromium to be gone', () => renderer.supervisor.connected() === null);
    // Longer than the first relaunch attempts (0 and 250 ms after the loss) take to start.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(renderer.supervisor.connected(), null);
    assert.equal(renderer.isReady(), false);
    await assert.rejects(renderer.supervisor.current(), /shutting down/);
  });
});
