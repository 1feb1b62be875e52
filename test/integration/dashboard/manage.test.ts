import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { pdfText } from '../../helpers/pdf.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import {
  atPhoneWidth,
  type Browser,
  caretToEnd,
  checkPage,
  closeAll,
  openSignedInBrowser,
  referenceClock,
  startCsvBatch,
  step,
  useLiveMode,
} from './browser.js';

const run = promisify(execFile);

/**
 * Management, safety and layout in the dashboard (issue 30 items 3, 4, 7, 9), end to end: a real server
 * (SQLite, Chromium renders, a worker for batches), a real browser, data made through the API as a
 * customer's code would, then the steps a user takes.
 */
/** The templates page shows this many cards per page (web/src/pages/templates.tsx). */
const CARDS_PER_PAGE = 24;
/** The documents log shows this many rows per page (web/src/pages/documents.tsx). */
const DOCUMENTS_PER_PAGE = 25;

/**
 * Only what changes between runs is masked (dates, ids, images, sizes), not whole cells: these references
 * also show the badges and the stacked rows on phones.
 */
const DYNAMIC =
  'time, code, img, canvas, iframe, .who span, .card .meta, td[data-label="Size"], td[data-label="Pages"]';

/** The editor's first preview has landed: the reference screenshot does not catch it half-way. */
async function previewShown(page: Page): Promise<void> {
  await page.locator('img.preview-page').first().waitFor({ timeout: 60_000 });
  await page.locator('.preview .busy').waitFor({ state: 'detached', timeout: 60_000 });
}

/**
 * The screenshot starts at the panel, at once: the dialog's own scrolling (smooth, and later on a busy
 * machine) otherwise decides which part of the page the reference shows.
 */
async function scrollToTop(locator: Locator): Promise<void> {
  await locator.evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
}

describe('dashboard: management, safety and layout', { timeout: 600_000 }, () => {
  let server: TestServer;
  let team: TestTeam;
  let browser: Browser;
  let page: Page;
  let invoiceId = '';

  async function apiLive(method: string, url: string, body?: unknown) {
    const res = await api(server.base, method, url, { key: team.live, ...(body ? { body } : {}) });
    assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${res.text}`);
    return res.json;
  }

  before(async () => {
    // The paging test makes more test-mode documents in a minute than a test key's default rate allows.
    const clock = referenceClock();
    server = await startTestServer({ workers: 1, testKeyRatePerMin: 100 }, { clock });
    team = await server.team('growth');
    const invoice = await apiLive('POST', '/v1/templates', {
      name: 'Invoice',
      html: '<h1>Invoice {{ number }}</h1>\n<p>Total due</p>',
      css: 'h1 { color: #123; }',
      sample_data: { number: '1001' },
    });
    invoiceId = invoice.id;
    // Version 2 changes one line: the version view must show exactly that.
    await apiLive('PUT', `/v1/templates/${invoiceId}`, {
      html: '<h1>Invoice {{ number }}</h1>\n<p>Amount payable</p>',
    });
    // Enough templates for a second page of cards (the brief: lists longer than a page are paged).
    for (let i = 1; i < CARDS_PER_PAGE + 2; i++) {
      await apiLive('POST', '/v1/templates', {
        name: `Letter ${String(i).padStart(2, '0')}`,
        html: '<p>x</p>',
      });
    }
    browser = await openSignedInBrowser(server, team.team.id, 'owner@example.com', 'owner password 123', {
      clock,
    });
    page = browser.page;
    assert.equal(await page.getByRole('radio', { name: 'Live' }).isChecked(), true, 'a new owner is in Live');
  });
  after(() => closeAll(browser, server));

  it('pages through more templates than fit on one page', () =>
    step(page, 'manage-paging', async () => {
      await page.goto(`${server.base}/app/#/templates`);
      await page.locator('.cards > .card').first().waitFor();
      assert.equal(await page.locator('.cards > .card').count(), CARDS_PER_PAGE);
      await page
        .getByRole('navigation', { name: 'Templates pages' })
        .getByRole('button', { name: 'Next' })
        .click();
      await page.getByText('Page 2').waitFor();
      await waitFor('the second page', async () =>
        (await page.locator('.cards > .card').count()) === 2 ? true : null,
      );
      const all = new Set<string>();
      for (const name of await page.locator('.card strong').allTextContents()) all.add(name);
      await page.getByRole('button', { name: 'Previous' }).click();
      await page.getByText('Page 1').waitFor();
      await waitFor('the first page', async () =>
        (await page.locator('.cards > .card').count()) === CARDS_PER_PAGE ? true : null,
      );
      for (const name of await page.locator('.card strong').allTextContents()) all.add(name);
      assert.equal(all.size, CARDS_PER_PAGE + 2, 'every template is on one of the two pages, once');
    }));

  it('renames and duplicates a template', () =>
    step(page, 'manage-rename', async () => {
      await page.goto(`${server.base}/app/#/templates/${invoiceId}`);
      await page.getByRole('heading', { name: 'Invoice', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByLabel('New name').fill('Invoice 2026');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByRole('heading', { name: 'Invoice 2026', level: 1 }).waitFor();
      const renamed = await apiLive('GET', `/v1/templates/${invoiceId}`);
      assert.equal(renamed.name, 'Invoice 2026');
      assert.equal(renamed.current_version, 2, 'a rename makes no version');

      await page.getByRole('button', { name: 'Duplicate' }).click();
      await page.locator('.toast').filter({ hasText: 'Duplicated as Invoice 2026 (copy)' }).waitFor();
      await page.getByRole('link', { name: 'Open the copy' }).click();
      await page.getByRole('heading', { name: 'Invoice 2026 (copy)', level: 1 }).waitFor();
      const copyId = /#\/templates\/([\w-]+)/.exec(page.url())?.[1] ?? '';
      const copy = await apiLive('GET', `/v1/templates/${copyId}`);
      assert.notEqual(copyId, invoiceId);
      assert.equal(copy.html, renamed.html, 'the copy has the current HTML');
      assert.equal(copy.css, renamed.css);
      assert.deepEqual(copy.sample_data, renamed.sample_data);
      assert.equal(copy.current_version, 1);
    }));

  it("shows an old version's source against the current one and restores it as a new version", () =>
    step(page, 'manage-restore', async () => {
      await page.goto(`${server.base}/app/#/templates/${invoiceId}`);
      await page.getByRole('button', { name: 'Compare v1' }).click();
      const view = page.getByTestId('version-source');
      await view.getByText('HTML: 1 removed, 1 added').waitFor();
      const removed = (await view.locator('.text-diff .del').allTextContents()).map((t) => t.trim());
      const added = (await view.locator('.text-diff .add').allTextContents()).map((t) => t.trim());
      assert.deepEqual(removed, ['removed: − <p>Total due</p>']);
      assert.deepEqual(added, ['added: + <p>Amount payable</p>']);
      await view.getByText('CSS: unchanged').waitFor();
      await previewShown(page);
      await scrollToTop(page.getByTestId('version-source'));
      await checkPage(page, 'template-version-source', DYNAMIC);

      await view.getByRole('button', { name: 'Restore v1 as a new version' }).click();
      const dialog = page.getByRole('dialog', { name: 'Restore version 1?' });
      await dialog.getByRole('button', { name: 'Restore v1' }).click();
      await page.locator('.toast').filter({ hasText: 'Version 1 restored as version 3.' }).waitFor();
      const restored = await apiLive('GET', `/v1/templates/${invoiceId}`);
      assert.equal(restored.current_version, 3);
      assert.match(restored.html, /Total due/);
      assert.doesNotMatch(restored.html, /Amount payable/);
      // The editor now holds the restored text, and the history lists v3.
      await page.getByRole('button', { name: 'Compare v3' }).waitFor();
      await waitFor('the editor to show the restored HTML', async () =>
        /Total due/.test((await page.locator('[data-editor="html-pane"] .cm-content').textContent()) ?? '')
          ? true
          : null,
      );

      // Ctrl+S saves from inside an editor pane.
      await caretToEnd(page, 'Template HTML');
      await page.keyboard.insertText('\n<p>Saved with the keyboard</p>');
      await page.keyboard.press('Control+s');
      await page.getByText('Saved as version 4.').waitFor({ timeout: 60_000 });
      assert.match((await apiLive('GET', `/v1/templates/${invoiceId}`)).html, /Saved with the keyboard/);
    }));

  it('offers curl and TypeScript snippets with the template id and a key placeholder; the curl one works', () =>
    step(page, 'manage-snippets', async () => {
      await page.goto(`${server.base}/app/#/templates/${invoiceId}`);
      await page.getByText('Use from the API').click();
      const curl = (await page.locator('.snippet pre').first().textContent()) ?? '';
      const ts = (await page.locator('.snippet pre').nth(1).textContent()) ?? '';
      for (const snippet of [curl, ts]) {
        assert.ok(snippet.includes(invoiceId), 'the template id is filled in');
        assert.ok(snippet.includes(server.base), "the server's own address");
        assert.ok(snippet.includes('QUIRE_API_KEY'), 'a key placeholder');
        assert.doesNotMatch(snippet, /qk_(live|test)_/, 'never a real key');
      }
      assert.match(ts, /import \{ QuireClient \} from '@quire\/client'/);
      // The copied snippet is the shown one.
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
      await page.getByRole('button', { name: 'Copy the curl snippet' }).click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), curl);
      // Run as a user would paste it into a shell, with their key in the variable.
      const dir = mkdtempSync(path.join(tmpdir(), 'quire-snippet-'));
      try {
        await run('bash', ['-c', curl], { cwd: dir, env: { ...process.env, QUIRE_API_KEY: team.live } });
        const pdf = readFileSync(path.join(dir, 'document.pdf'));
        assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
        const text = await pdfText(pdf);
        assert.match(text, /Invoice 1001/);
        assert.match(text, /Saved with the keyboard/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }));

  it("announces a batch's result on another page and lists it with its items", () =>
    step(page, 'manage-batches', async () => {
      await page.goto(`${server.base}/app/#/batches`);
      await page.getByRole('heading', { name: 'No batches yet' }).waitFor();
      await startCsvBatch(page, invoiceId, 'number\n501\n502\n503\n', 3);
      await page.getByRole('heading', { name: /^Batch / }).waitFor();
      // The user goes elsewhere; the result still finds them.
      await page.getByRole('link', { name: 'Documents' }).click();
      await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
      const toast = page
        .locator('.toast')
        .filter({ hasText: 'Batch of 3 (Invoice 2026) finished: 3 succeeded.' });
      await toast.waitFor({ timeout: 180_000 });
      const zipUrl = (await toast.getByRole('link', { name: 'Get the ZIP' }).getAttribute('href')) ?? '';
      const zip = await fetch(zipUrl);
      assert.equal(zip.status, 200);
      assert.equal(zip.headers.get('content-type'), 'application/zip');

      await page.getByRole('link', { name: 'Batches' }).click();
      const row = page.getByTestId('batches').locator('tbody tr');
      await row.first().waitFor();
      assert.equal(await row.count(), 1);
      assert.match((await row.first().textContent()) ?? '', /Invoice 2026.*completed.*3 of 3 succeeded/);
      assert.ok(
        await row
          .first()
          .getByRole('link', { name: /Download ZIP/ })
          .isVisible(),
      );
      await row
        .first()
        .getByRole('button', { name: /Show items/ })
        .click();
      const items = page.getByTestId('batch-items').locator('tbody tr');
      await items.nth(2).waitFor();
      assert.deepEqual(
        (await items.locator('td[data-label="Status"]').allTextContents()).map((t) => t.trim()),
        ['succeeded', 'succeeded', 'succeeded'],
      );
      await checkPage(page, 'batches-list', DYNAMIC);
    }));

  it('searches the documents log by id and offers to clear a search that finds nothing', () =>
    step(page, 'manage-search', async () => {
      await page.goto(`${server.base}/app/#/documents`);
      const rows = page.locator('table tbody tr');
      await rows.first().waitFor();
      const all = await rows.count();
      assert.ok(all >= 4, `the batch's 3 documents and the snippet's one are listed (${all})`);
      // A whole id finds that one document.
      const id = (await rows.nth(1).getAttribute('data-document')) ?? '';
      await page.getByLabel('Search').fill(id);
      await page.getByLabel('Search').press('Enter');
      await waitFor('the search to narrow the log', async () => ((await rows.count()) === 1 ? true : null));
      assert.equal(await rows.first().getAttribute('data-document'), id);
      await page.getByLabel('Search').fill('no such document');
      await page.getByLabel('Search').press('Enter');
      await page.getByRole('heading', { name: 'No documents match' }).waitFor();
      await page.getByRole('button', { name: 'Clear the filters' }).click();
      await waitFor('the whole log again', async () => ((await rows.count()) === all ? true : null));
      assert.equal(await page.getByLabel('Search').inputValue(), '');
    }));

  it('pages the documents log forwards and back by its cursors', () =>
    step(page, 'manage-documents-paging', async () => {
      // The test key's log, apart from the live one the other tests read: one document more than a page.
      for (let i = 0; i < DOCUMENTS_PER_PAGE + 1; i++) {
        const r = await api(server.base, 'POST', '/v1/pdf', {
          key: team.test,
          body: { html: `<p>Sandbox ${i}</p>`, response: 'url' },
        });
        assert.equal(r.status, 200, r.text);
      }
      await page.goto(`${server.base}/app/#/documents`);
      await page.getByRole('radio', { name: 'Test' }).check();
      const rows = page.locator('table tbody tr');
      const pager = page.getByRole('navigation', { name: 'Documents pages' });
      await waitFor('a full first page', async () =>
        (await rows.count()) === DOCUMENTS_PER_PAGE ? true : null,
      );
      const newest = await rows.first().getAttribute('data-document');
      assert.equal(await pager.getByRole('button', { name: 'Previous' }).isDisabled(), true);
      await pager.getByRole('button', { name: 'Next' }).click();
      await pager.getByText('Page 2').waitFor();
      await waitFor('the oldest document alone', async () => ((await rows.count()) === 1 ? true : null));
      assert.equal(await pager.getByRole('button', { name: 'Next' }).isDisabled(), true, 'no page after it');
      await pager.getByRole('button', { name: 'Previous' }).click();
      await pager.getByText('Page 1').waitFor();
      await waitFor('the first page again', async () =>
        (await rows.count()) === DOCUMENTS_PER_PAGE ? true : null,
      );
      assert.equal(await rows.first().getAttribute('data-document'), newest);
      await useLiveMode(page);
    }));

  it('keeps the chosen key mode after creating a key', () =>
    step(page, 'manage-keys', async () => {
      await page.goto(`${server.base}/app/#/keys`);
      await page.locator('#key-mode').selectOption('live');
      await page.getByLabel('Name', { exact: true }).fill('Deploy');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByTestId('new-key-secret').waitFor();
      assert.equal(await page.locator('#key-mode').inputValue(), 'live', 'the mode stays as chosen');
      assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), '', 'the name is cleared');
    }));

  it('follows the system dark mode with readable contrast', () =>
    step(page, 'manage-dark', async () => {
      await page.emulateMedia({ colorScheme: 'dark' });
      try {
        await page.goto(`${server.base}/app/#/batches`);
        await page.getByTestId('batches').locator('tbody tr').first().waitFor();
        const background = await page.evaluate(
          () => getComputedStyle(document.documentElement).backgroundColor,
        );
        assert.equal(background, 'rgb(14, 19, 25)', 'the dark scheme applies (--canvas)');
        // axe's colour-contrast rule (serious) covers text, badges and links in the dark scheme too.
        await checkPage(page, 'batches-dark', DYNAMIC);
        await page.goto(`${server.base}/app/#/templates/${invoiceId}`);
        await page.getByRole('button', { name: 'Compare v1' }).click();
        await page.getByTestId('version-source').getByText('HTML:').waitFor();
        await previewShown(page);
        await scrollToTop(page.getByTestId('version-source'));
        await checkPage(page, 'template-version-source-dark', DYNAMIC);
      } finally {
        await page.emulateMedia({ colorScheme: 'light' });
      }
    }));

  it('collapses the sidebar (remembered) and opens the navigation as a menu on phones', () =>
    step(page, 'manage-sidebar', async () => {
      await page.goto(`${server.base}/app/#/documents`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await page.getByRole('button', { name: 'Collapse the sidebar' }).click();
      await page.locator('.shell.collapsed').waitFor();
      const width = async () => (await page.locator('#sidebar').boundingBox())?.width ?? 0;
      assert.ok((await width()) <= 64, `collapsed sidebar is ${await width()}px`);
      // Labels stay for screen readers; the links still work.
      await nav.getByRole('link', { name: 'Usage' }).click();
      await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
      await page.reload();
      await page.locator('.shell.collapsed').waitFor();
      await page.getByRole('button', { name: 'Expand the sidebar' }).click();
      assert.ok((await width()) > 200);

      await atPhoneWidth(page, async () => {
        assert.equal(await nav.isVisible(), false, 'no wall of links on a phone');
        await page.getByRole('button', { name: 'Menu' }).click();
        await nav.getByRole('link', { name: 'Members' }).click();
        await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
        await waitFor('the menu to close', async () => ((await nav.isVisible()) ? null : true));
        assert.equal(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded'), 'false');
      });
    }));
});
