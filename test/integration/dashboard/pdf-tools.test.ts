import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { pdfInfo, pdfInfoFields } from '../../helpers/pdf.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import {
  assertAccessibleAndFits,
  type Browser,
  closeAll,
  downloadedBytes,
  openSignedInBrowser,
  step,
} from './browser.js';

/**
 * The PDF tools page (web/src/pages/pdf-tools.tsx) against a real server: a 2-page PDF made with the API is
 * uploaded, inspected, then rotated and cut to its second page; the downloaded file is read with poppler.
 */
const TWO_PAGES = '<p>First page</p><p style="break-before: page">Second page</p>';

describe('dashboard: PDF tools', { timeout: 300_000 }, () => {
  let server: TestServer;
  let team: TestTeam;
  let browser: Browser;
  let page: Page;
  let source: Buffer;
  let sourceId: string;

  // Registered first, so the browser closes (and its page errors are checked) before the server.
  after(() => closeAll(browser));
  serverWithTeam('growth', (both) => ({ server, team } = both), { workers: 1 });
  before(async () => {
    const made = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { html: TWO_PAGES, format: 'A4' },
    });
    assert.equal(made.status, 200, made.text);
    source = made.buffer;
    sourceId = made.headers.get('x-document-id') ?? '';
    browser = await openSignedInBrowser(server, team.team.id, 'pdf-tools-owner@example.com');
    page = browser.page;
  });

  it('inspects an uploaded PDF, then rotates and keeps its second page in the downloaded result', () =>
    step(page, 'pdf-tools', async () => {
      await page.getByRole('link', { name: 'PDF tools' }).click();
      await page.getByRole('heading', { name: 'PDF tools', level: 1 }).waitFor();
      await page.getByLabel('Drop a PDF here or choose one').setInputFiles({
        name: 'two-pages.pdf',
        mimeType: 'application/pdf',
        buffer: source,
      });
      await page.getByText(/^two-pages\.pdf \(/).waitFor();
      await page.getByRole('button', { name: 'Inspect' }).click();

      const inspection = page.getByRole('region', { name: 'Inspection' });
      await inspection.waitFor({ timeout: 60_000 });
      assert.equal(await inspection.getByTestId('inspect-pages').textContent(), '2');
      const sizes = inspection.getByRole('table', { name: 'Page sizes' });
      await sizes.getByRole('cell', { name: '1–2', exact: true }).waitFor();
      await sizes.getByRole('cell', { name: /^A4 \(210 × 297 mm\)$/ }).waitFor();
      await inspection.getByText('No form fields.').waitFor();

      await page.getByLabel('Step to add').selectOption({ label: 'Rotate pages' });
      await page.getByRole('button', { name: 'Add step' }).click();
      await page.getByLabel('Step to add').selectOption({ label: 'Keep pages' });
      await page.getByRole('button', { name: 'Add step' }).click();
      await page.getByRole('group', { name: 'Step 2: Keep pages' }).waitFor();
      // A page the file does not have: the API's message, and the step it names.
      await page.getByLabel('Pages to keep, in order').fill('5');
      await page.getByRole('button', { name: 'Transform', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: '(invalid_request)' }).waitFor({ timeout: 60_000 });
      await page.getByText('Field: steps[1].select (step 2)').waitFor();
      await page.getByLabel('Pages to keep, in order').fill('2');
      await assertAccessibleAndFits(page, 'pdf-tools');

      const download = page.waitForEvent('download', { timeout: 60_000 });
      await page.getByRole('button', { name: 'Transform', exact: true }).click();
      const pdf = await downloadedBytes(await download);
      const info = await pdfInfo(pdf);
      assert.equal(info.pages, 1, 'only page 2 is kept');
      assert.equal((await pdfInfoFields(pdf))['Page rot'], '90', 'the kept page is turned');

      const result = page.getByRole('status').filter({ hasText: 'The download has started' });
      await result.getByText(/^Made 1 page /).waitFor();
      const link = result.getByRole('link');
      const id = (await link.textContent()) ?? '';
      assert.equal(await link.getAttribute('href'), `#/documents?highlight=${id}`);
      const stored = await api(server.base, 'GET', `/v1/pdf/${id}`, { key: team.live });
      assert.equal(stored.status, 200, stored.text);
      assert.equal(stored.json.pages, 1);
    }));

  it('inspects one of the team’s stored documents picked from the list', () =>
    step(page, 'pdf-tools-document', async () => {
      await page.getByRole('radio', { name: 'One of your documents' }).check();
      await page.getByLabel('Document', { exact: true }).selectOption(sourceId);
      await page.getByRole('button', { name: 'Inspect' }).click();
      const inspection = page.getByRole('region', { name: 'Inspection' });
      await inspection.waitFor({ timeout: 60_000 });
      assert.equal(await inspection.getByTestId('inspect-pages').textContent(), '2');
    }));
});
