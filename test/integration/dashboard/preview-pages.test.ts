import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page, Route } from 'playwright-core';
import { renderPageImages } from '../../../src/render/index.js';
import { pdfText } from '../../helpers/pdf.js';
import { api, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { type Browser, caretToEnd, closeAll, openDraftPdf, openEditorSetUp } from './browser.js';

/**
 * The editor's live preview as page images: Quire's own rendering of the draft's pages,
 * not the browser's PDF viewer; it follows edits, keeps the old pages until new ones land, never lets a
 * stale answer win, zooms, and still opens the real (watermarked) PDF.
 */

const HTML = '<h1>Quarterly report for {{ who }}</h1>';
const BREAK = '<div style="break-after: page"></div><h1>Second page appendix</h1>';

interface Shown {
  count: number;
  srcs: string[];
  naturalWidths: number[];
}

async function shown(page: Page): Promise<Shown> {
  return page.locator('img.preview-page').evaluateAll((imgs) => ({
    count: imgs.length,
    srcs: imgs.map((img) => (img as HTMLImageElement).src),
    naturalWidths: imgs.map((img) => (img as HTMLImageElement).naturalWidth),
  }));
}

/** Resolves once the preview shows `count` decoded pages and `check` holds. */
async function previewShows(
  page: Page,
  what: string,
  count: number,
  check: (s: Shown) => boolean = () => true,
) {
  return waitFor(
    what,
    async () => {
      const s = await shown(page);
      return s.count === count && s.naturalWidths.every((w) => w > 0) && check(s) ? s : null;
    },
    60_000,
  );
}

/** Appends text at the end of the HTML pane, as typing would. */
async function appendHtml(page: Page, text: string): Promise<void> {
  await caretToEnd(page, 'Template HTML');
  await page.keyboard.insertText(text);
}

describe('template editor: live preview as page images', { timeout: 600_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let liveKey: string;
  let templateId: string;

  /** The draft's watermarked PDF through the API, rasterised as the server does: what the editor must show. */
  async function expectedPages(html: string): Promise<{ pngs: string[]; text: string }> {
    const res = await api(server.base, 'POST', `/v1/templates/${templateId}/draft-preview`, {
      key: liveKey,
      body: { html, css: '', settings: {}, data: { who: 'Ada' } },
    });
    assert.equal(res.status, 200, res.text.slice(0, 200));
    const { pages } = await renderPageImages(res.buffer, { first: 1, last: 10, width: 1000 });
    return {
      pngs: pages.map((p) => `data:image/png;base64,${p.png.toString('base64')}`),
      text: await pdfText(res.buffer),
    };
  }

  before(async () => {
    ({ server, liveKey, templateId, browser } = await openEditorSetUp({
      name: 'Report',
      html: HTML,
      css: '',
      sample_data: { who: 'Ada' },
      settings: {},
    }));
    page = browser.page;
  });
  after(() => closeAll(browser, server));

  it('shows the draft’s pages as images, adds a page when a page break is typed, and links the filter reference', async () => {
    await page.goto(`${server.base}/app/#/templates/${templateId}`);
    const first = await previewShows(page, 'the first preview page', 1);
    assert.equal(first.naturalWidths[0], 1000, 'rendered 1000 px wide, scaled by the page');
    assert.equal(await page.locator('iframe').count(), 0, 'no browser PDF viewer');
    assert.match((await page.locator('#preview-title').textContent()) ?? '', /\(1 page\)/);
    // Live mode, still watermarked: the page says why.
    assert.match(
      (await page.locator('#preview-note').textContent()) ?? '',
      /watermarked in Live mode too.*the API watermarks every preview/s,
    );
    const liquid = page.getByRole('link', { name: 'Liquid filters' });
    assert.equal(await liquid.getAttribute('href'), '/docs/liquid');
    assert.equal((await api(server.base, 'GET', '/docs/liquid')).status, 200);

    // What is shown is exactly the preview PDF's first page, with the sample data's name in its text.
    const before = await expectedPages(HTML);
    assert.match(before.text, /Quarterly report for Ada/);
    assert.equal(first.srcs[0], before.pngs[0], 'page 1 is the rasterised draft preview');

    await appendHtml(page, BREAK);
    const two = await previewShows(page, 'a second page after the page break', 2);
    const after = await expectedPages(HTML + BREAK);
    assert.match(after.text, /Second page appendix/);
    assert.deepEqual(two.srcs, after.pngs, 'both pages are the rasterised draft preview');
    assert.notEqual(two.srcs[1], two.srcs[0]);
    assert.match((await page.locator('#preview-title').textContent()) ?? '', /\(2 pages\)/);
  });

  it('keeps the old pages while a preview is under way and never lets a slower, older answer win', async () => {
    const held: Route[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first draft (marked SLOW) is held back until the newer one (FAST) has been shown.
    await page.route('**/draft-preview/pages', async (route) => {
      const body = route.request().postData() ?? '';
      if (body.includes('SLOW') && !body.includes('FAST')) {
        held.push(route);
        await gate;
      }
      await route.continue();
    });
    try {
      const before = await shown(page);
      await appendHtml(page, '<p>SLOW</p>');
      await waitFor('the SLOW request to be held', async () => (held.length > 0 ? true : null), 60_000);
      // Meanwhile the previous pages stay on screen.
      assert.deepEqual((await shown(page)).srcs, before.srcs);
      await page.keyboard.insertText('<p>FAST</p>');
      const fast = await expectedPages(`${HTML + BREAK}<p>SLOW</p><p>FAST</p>`);
      await previewShows(page, 'the FAST preview', 2, (s) => s.srcs[1] === fast.pngs[1]);
      // Every page image the preview shows from now on is recorded in the page.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { previewSrcs: string[] }).previewSrcs = seen;
        const pane = document.querySelector('[data-testid="preview-pages"]');
        if (!pane) throw new Error('no preview pane');
        new MutationObserver(() => {
          for (const img of document.querySelectorAll('img.preview-page'))
            seen.push(img.getAttribute('src') ?? '');
        }).observe(pane, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
      });
      const stale = await expectedPages(`${HTML + BREAK}<p>SLOW</p>`);
      const answered = page.waitForResponse((r) => r.url().endsWith('/draft-preview/pages'), {
        timeout: 60_000,
      });
      release();
      // The held answer arrives and is read whole; then a newer edit's preview, which the page can only show
      // after it has handled the stale answer (answers are handled in the order they arrive).
      await (await answered).finished();
      await page.keyboard.insertText('<p>THIRD</p>');
      const third = await expectedPages(`${HTML + BREAK}<p>SLOW</p><p>FAST</p><p>THIRD</p>`);
      await previewShows(page, 'the THIRD preview', 2, (s) => s.srcs[1] === third.pngs[1]);
      const seen = await page.evaluate(() => (window as unknown as { previewSrcs: string[] }).previewSrcs);
      assert.ok(seen.includes(third.pngs[1] ?? '-'), 'the recorder saw the pages change');
      assert.ok(!seen.includes(stale.pngs[1] ?? '-'), 'the stale SLOW answer was never shown');
    } finally {
      release();
      await page.unroute('**/draft-preview/pages');
    }
  });

  it('zooms the pages and opens the real preview PDF in a new tab', async () => {
    const img = page.locator('img.preview-page').first();
    const fit = (await img.boundingBox())!.width;
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await waitFor('the page to grow', async () =>
      (await img.boundingBox())!.width > fit * 1.2 ? true : null,
    );
    assert.equal(await page.getByLabel('Zoom', { exact: true }).inputValue(), '125');
    await page.getByLabel('Zoom', { exact: true }).selectOption('50');
    await waitFor('the page to shrink', async () =>
      (await img.boundingBox())!.width < fit * 0.6 ? true : null,
    );
    await page.getByLabel('Zoom', { exact: true }).selectOption('100');

    const { pdf, tab } = await openDraftPdf(page);
    assert.match(await pdfText(pdf), /Second page appendix/);
    await tab.close();
  });

  it('shows the draft’s accessibility report beside the preview: a skipped heading level is listed', async () => {
    const summary = page.getByTestId('accessibility-summary');
    await waitFor(
      'the accessibility report',
      async () => ((await summary.count()) > 0 ? true : null),
      60_000,
    );
    assert.equal(await summary.locator('[data-check="heading_levels"]').count(), 0, 'h1 then h1: no gap yet');
    await appendHtml(page, '<h3>Skipped a level</h3>');
    const skipped = summary.locator('[data-check="heading_levels"]');
    await waitFor(
      'the skipped heading level to be listed',
      async () => ((await skipped.count()) > 0 ? true : null),
      60_000,
    );
    assert.match((await skipped.textContent()) ?? '', /heading/i);
  });
});
