import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { pdfText } from '../../helpers/pdf.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import {
  assertAccessibleAndFits,
  type Browser,
  closeAll,
  openSignedInBrowser,
  step,
  useLiveMode,
} from './browser.js';

/**
 * Batches tell the truth (web/src/pages/batches.tsx, batch-mapper.tsx, batch-outcome.tsx), end to end: a
 * batch whose rows all fail is not a green "completed", each row shows its render's own message with a link
 * to the document, no empty ZIP is offered; the column mapper offers the template's sample values for the
 * variables no column fills, warns about those left empty, and names the files after the invoice number.
 * The documents log then shows each failure's message, marks documents with warnings, and says "no file"
 * for a document that never had one.
 */
const TEMPLATE = {
  name: 'Invoice',
  html: '<p>{{ seller.name }}</p><p>Invoice {{ number }}</p><p>Total {{ amount | money: currency }}</p>',
  sample_data: { number: 'INV-1', seller: { name: 'Northwind Studio' }, amount: 100, currency: 'EUR' },
};
const CSV = 'number,amount\n1001,10\n1002,20\n';

describe('dashboard: batches and the documents log', { timeout: 400_000 }, () => {
  let server: TestServer;
  let team: TestTeam;
  let browser: Browser;
  let page: Page;
  let templateId: string;

  after(() => closeAll(browser));
  serverWithTeam('growth', (both) => ({ server, team } = both), { workers: 1 });
  before(async () => {
    const template = await api(server.base, 'POST', '/v1/templates', { key: team.live, body: TEMPLATE });
    assert.equal(template.status, 201, template.text);
    templateId = template.json.id as string;
    browser = await openSignedInBrowser(server, team.team.id, 'batch-owner@example.com');
    page = browser.page;
    await useLiveMode(page);
  });

  /** A fresh batches page with the CSV read against the template (the mapper shown). */
  async function readCsv(): Promise<void> {
    await page.goto(`${server.base}/app/#/batches`);
    await page.reload();
    await page.getByLabel('Template').selectOption(templateId);
    await page.getByLabel('Spreadsheet (CSV or XLSX)').setInputFiles({
      name: 'rows.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(CSV),
    });
    await page.getByRole('button', { name: 'Read columns' }).click();
    await page.getByRole('heading', { name: /^Map columns/ }).waitFor();
  }

  it('shows a batch whose rows all failed as failed, with each real message and no empty ZIP', () =>
    step(page, 'batch-failed', async () => {
      await readCsv();
      const unmapped = page.getByTestId('unmapped');
      assert.match((await unmapped.textContent()) ?? '', /seller\.name.*Northwind Studio.*currency.*EUR/);
      // Without the sample currency the money filter fails on every row; the page says so before starting.
      await unmapped.getByRole('checkbox', { name: /currency/ }).uncheck();
      await unmapped.getByRole('checkbox', { name: /seller\.name/ }).uncheck();
      const warning = page.getByTestId('unmapped-warning');
      assert.match(
        (await warning.textContent()) ?? '',
        /2 template variables get no value.*seller\.name.*currency/,
      );
      await page.getByRole('button', { name: 'Start batch of 2 documents' }).click();

      const outcome = page.locator('section[aria-labelledby="progress-title"] .badge');
      await page.getByText('No ZIP: no item succeeded').first().waitFor({ timeout: 180_000 });
      assert.equal((await outcome.textContent())?.trim(), 'failed: 2 of 2');
      assert.match((await outcome.getAttribute('class')) ?? '', /badge-bad/);
      assert.equal(await page.getByRole('link', { name: /Download/ }).count(), 0, 'no empty ZIP offered');

      const listed = page.getByTestId('batches').locator('tbody tr').first();
      await listed.getByText('failed: 2 of 2').waitFor();
      assert.doesNotMatch((await listed.locator('.badge').getAttribute('class')) ?? '', /badge-ok/);

      await page.getByRole('link', { name: 'See why 2 items failed' }).click();
      const items = page.getByTestId('batch-items').locator('tbody tr');
      await items.nth(1).waitFor();
      for (const text of await items.locator('td[data-label="Error"]').allTextContents()) {
        assert.match(text, /ISO 4217 currency code/, 'the render’s own words, not the code’s description');
      }
      await assertAccessibleAndFits(page, 'batch-failed');
      await items
        .first()
        .getByRole('link', { name: /Why it failed/ })
        .click();
      await page
        .getByText(/ISO 4217 currency code/)
        .first()
        .waitFor();
    }));

  it('fills unmapped variables from the sample data and names files after the invoice number', () =>
    step(page, 'batch-samples', async () => {
      await readCsv();
      assert.equal(await page.getByTestId('unmapped-warning').count(), 0, 'nothing left empty');
      assert.equal(await page.getByLabel('File names').inputValue(), 'Invoice {{ number }}');
      await page.getByRole('button', { name: 'Start batch of 2 documents' }).click();
      await page.getByRole('link', { name: 'Download the ZIP' }).waitFor({ timeout: 180_000 });
      const outcome = page.locator('section[aria-labelledby="progress-title"] .badge');
      assert.equal((await outcome.textContent())?.trim(), 'completed');

      const batches = await api(server.base, 'GET', '/v1/batches', { key: team.live });
      const id = batches.json.data[0].id as string;
      const listed = await api(server.base, 'GET', `/v1/batches/${id}/items`, { key: team.live });
      const items = listed.json.data as Array<{ filename: string; url: string }>;
      assert.deepEqual(
        items.map((i) => i.filename),
        ['Invoice-1001.pdf', 'Invoice-1002.pdf'],
      );
      const text = await pdfText(Buffer.from(await (await fetch(items[0]?.url ?? '')).arrayBuffer()));
      assert.match(text, /Northwind Studio/);
      assert.match(text, /Invoice 1001/);
      assert.match(text, /€/);
    }));

  it('lists each failure with its message, marks warnings and says "no file" for a failed document', () =>
    step(page, 'documents-log', async () => {
      // Rendered with a warning: the seller's name is missing.
      const warned = await api(server.base, 'POST', '/v1/pdf', {
        key: team.live,
        body: { template_id: templateId, data: { number: 'W-1', amount: 5, currency: 'EUR' } },
      });
      assert.equal(warned.status, 200, warned.text);
      await page.goto(`${server.base}/app/#/documents`);
      const rows = page.locator('main table tbody tr');
      await rows.nth(4).waitFor();
      const failed = rows.filter({ has: page.locator('[data-status="failed"]') });
      assert.equal(await failed.count(), 2);
      for (const text of await failed.locator('td[data-label="Notes"]').allTextContents()) {
        assert.match(text, /ISO 4217 currency code.*template_render_error/);
      }
      for (const text of await failed.locator('td[data-label="File"]').allTextContents()) {
        assert.equal(text.trim(), 'no file');
      }
      const first = rows.first();
      assert.match(
        (await first.locator('td[data-label="Status"]').textContent()) ?? '',
        /succeeded.*\d+ warnings?/,
      );
      assert.doesNotMatch((await page.locator('main table').textContent()) ?? '', /v\?/);
      await assertAccessibleAndFits(page, 'documents-log');
    }));
});
