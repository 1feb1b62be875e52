import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertAccessibleAndFits, type Browser, closeAll, openSignedInBrowser } from './browser.js';

/** The E-invoice check page in a real browser against a real server: choose a file, read the verdict and the invoice. */
describe('dashboard: E-invoice check', { timeout: 300_000 }, () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    // A loaded test machine must not turn the 10 s per-file limit into a flaky verdict (see the API tests).
    server = await startTestServer({ einvoiceCheckTimeoutMs: 120_000 });
    const team = await server.team('growth');
    browser = await openSignedInBrowser(server, team.team.id, 'checker@example.com', 'checker password 1');
  });
  after(() => closeAll(browser, server));

  it('shows each failed rule with its text and location, and the parsed invoice', async () => {
    const page = browser.page;
    await page.getByRole('link', { name: 'E-invoice check' }).click();
    await page.getByRole('heading', { name: 'E-invoice check', level: 1 }).waitFor();
    await page.getByLabel('Drop a file here or choose one').setInputFiles({
      name: 'no-endpoint.xml',
      mimeType: 'application/xml',
      buffer: readFileSync(
        'tools/einvoice-validate/samples/peppol/broken/base-example.no-buyer-endpoint.xml',
      ),
    });
    await page.getByRole('heading', { name: 'Invalid: 1 failed rule(s)' }).waitFor({ timeout: 120_000 });
    const failed = page.getByRole('table', { name: 'Failed rules' });
    await failed.getByRole('cell', { name: 'PEPPOL-EN16931-R010', exact: true }).waitFor();
    await failed.getByRole('cell', { name: 'Buyer electronic address MUST be provided' }).waitFor();
    assert.match((await failed.locator('tbody tr td').nth(2).textContent()) ?? '', /AccountingCustomerParty/);
    await page.getByRole('heading', { name: /^Invoice Snippet1 of 2017-11-13/ }).waitFor();
    assert.equal(await page.getByRole('table', { name: 'Lines' }).locator('tbody tr').count(), 2);

    await assertAccessibleAndFits(page, 'einvoice-check');
  });
});
