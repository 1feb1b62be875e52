import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { pdfText } from '../../helpers/pdf.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import {
  assertAccessibleAndFits,
  type Browser,
  closeAll,
  generatePdf,
  openSignedInBrowser,
  step,
} from './browser.js';

/**
 * The generate form's data fields (web/src/data-form.tsx), end to end: a multi-line address is shown and
 * sent with its line breaks, and line items are edited as table rows; the PDF is read back with pdftotext.
 */
const ADDRESS = 'Hafenstraße 12\n20457 Hamburg\nGermany';
const TEMPLATE = {
  name: 'Invoice with an address',
  html: `<p>{{ seller.name }}</p>
<p>{{ seller.address | escape | newline_to_br }}</p>
<p>VAT ID {{ seller.vat_id }}</p>
<table>{% for item in items %}<tr><td>{{ item.description }}</td><td>{{ item.quantity }} × {{ item.unit_price }}</td></tr>{% endfor %}</table>`,
  sample_data: {
    seller: { name: 'Northwind Studio GmbH', address: ADDRESS, vat_id: 'DE123456789' },
    items: [{ description: 'Brand workshop', quantity: 2, unit_price: 1450 }],
  },
};

/** The PDF's lines, trimmed (pdftotext -layout indents them). */
async function pdfLines(pdf: Buffer): Promise<string[]> {
  return (await pdfText(pdf)).split('\n').map((line) => line.trim());
}

describe('dashboard: generate form fields', { timeout: 300_000 }, () => {
  let server: TestServer;
  let team: TestTeam;
  let browser: Browser;
  let page: Page;
  let templateId: string;

  // Registered first, so the browser closes (and its page errors are checked) before the server.
  after(() => closeAll(browser));
  serverWithTeam('growth', (both) => ({ server, team } = both), { workers: 1 });
  before(async () => {
    const template = await api(server.base, 'POST', '/v1/templates', { key: team.live, body: TEMPLATE });
    assert.equal(template.status, 201, template.text);
    templateId = template.json.id as string;
    browser = await openSignedInBrowser(server, team.team.id, 'fields-owner@example.com');
    page = browser.page;
  });

  /** The generate page for the template, freshly loaded (no edits of a step before carried over). */
  async function openGenerate(): Promise<void> {
    await page.goto(`${server.base}/app/#/generate?template=${templateId}`);
    await page.reload();
    await page.getByRole('button', { name: 'Generate PDF' }).waitFor({ timeout: 60_000 });
  }

  it('shows a multi-line address with its line breaks and prints the edited lines on separate lines', () =>
    step(page, 'generate-address', async () => {
      await openGenerate();
      const address = page.getByLabel('Address', { exact: true });
      assert.equal(await address.inputValue(), ADDRESS, 'the line breaks are shown, not dropped');
      assert.equal(await address.evaluate((el) => el.tagName), 'TEXTAREA');
      // The key in words with its acronyms, and the path the template uses.
      await page.getByLabel('VAT ID', { exact: true }).waitFor();
      await page.getByText('seller.vat_id', { exact: true }).waitFor();

      await address.fill('Hafenstraße 14\n20457 Hamburg\nGermany');
      // The same data as JSON, one click away, with the line breaks kept.
      await page.getByRole('button', { name: 'Edit as JSON' }).click();
      const json = page.getByRole('textbox', { name: 'Data (JSON)' });
      await json.waitFor();
      assert.match((await json.textContent()) ?? '', /"address": "Hafenstraße 14\\n20457 Hamburg\\nGermany"/);
      await page.getByRole('button', { name: 'Back to the form' }).click();
      assert.equal(await address.inputValue(), 'Hafenstraße 14\n20457 Hamburg\nGermany');
      await assertAccessibleAndFits(page, 'generate-address');

      const lines = await pdfLines(await generatePdf(page));
      const at = lines.indexOf('Hafenstraße 14');
      assert.deepEqual(
        lines.slice(at, at + 3),
        ['Hafenstraße 14', '20457 Hamburg', 'Germany'],
        lines.join('\n'),
      );
    }));

  it('edits line items as table rows: a row added and one removed show in the PDF', () =>
    step(page, 'generate-line-items', async () => {
      await openGenerate();
      const items = page.getByRole('group', { name: 'Items' });
      assert.equal(await items.locator('tbody tr').count(), 1);
      await items.getByRole('button', { name: 'Add Items row' }).click();
      await items.getByLabel('Description, Items row 2').fill('Logo and identity system');
      await items.getByLabel('Quantity, Items row 2').fill('3');
      await items.getByLabel('Unit price, Items row 2').fill('3800');
      await items.getByRole('button', { name: 'Remove Items row 1' }).click();
      assert.equal(await items.locator('tbody tr').count(), 1);
      assert.equal(
        await items.getByLabel('Description, Items row 1').inputValue(),
        'Logo and identity system',
      );
      await assertAccessibleAndFits(page, 'generate-line-items');

      const lines = await pdfLines(await generatePdf(page));
      assert.ok(
        lines.some((line) => /^Logo and identity system\s+3 × 3800$/.test(line)),
        `the added row is printed:\n${lines.join('\n')}`,
      );
      assert.ok(!lines.some((line) => line.includes('Brand workshop')), 'the removed row is not');
    }));

  it('makes an e-invoice from the example form: an edited buyer, and Quire’s check of the official rules passes it', () =>
    step(page, 'generate-einvoice', async () => {
      await openGenerate();
      await page.getByLabel('Source').selectOption('einvoice');
      const standard = page.getByLabel('Standard');
      await standard.waitFor({ timeout: 60_000 });
      assert.equal(await standard.inputValue(), 'factur-x');
      assert.equal(await page.getByLabel('Profile').inputValue(), 'en16931');
      const buyerName = page
        .locator('#einvoice-hint ~ .data-form')
        .getByLabel('Name', { exact: true })
        .nth(1);
      await buyerName.fill('Kunde & Partner AG');
      await assertAccessibleAndFits(page, 'generate-einvoice');

      const pdf = await generatePdf(page);
      assert.match(await pdfText(pdf), /Kunde & Partner AG/);
      const check = await api(server.base, 'POST', '/v1/e-invoices/validate', {
        key: team.live,
        body: { filename: 'invoice.pdf', content_base64: pdf.toString('base64') },
      });
      assert.equal(check.status, 200, check.text);
      assert.equal(check.json.valid, true, JSON.stringify(check.json.errors));
      assert.deepEqual(check.json.warnings, [], 'no warnings either');
      await page
        .getByRole('status')
        .getByText(/e-invoice factur-x\/en16931/)
        .waitFor();
    }));
});
