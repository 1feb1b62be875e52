import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { makePkcs12 } from '../../helpers/certificates.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import {
  type Browser,
  checkPage,
  closeAll,
  openBrowser,
  referenceClock,
  signInNewOwner,
  step,
} from './browser.js';

/**
 * The brand assets page and a document's detail with its activity, end to end: a real server (SQLite,
 * Chromium renders), a real browser, steps as a user takes them; axe, 390 px and reference screenshots.
 */
const OWNER_EMAIL = 'brand-owner@example.com';
const OWNER_PASSWORD = 'owner password 123';
const FONT_FILE = '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf';
const DAY_MS = 24 * 60 * 60 * 1000;

/** A 60×20 blue PNG, made here so the test needs no fixture file. */
function logoPng(): Buffer {
  const png = new PNG({ width: 60, height: 20 });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = 0x1f;
    png.data[i + 1] = 0x6f;
    png.data[i + 2] = 0xeb;
    png.data[i + 3] = 0xff;
  }
  return PNG.sync.write(png);
}

/** Dynamic parts (dates, ids, images, sizes) are masked in reference screenshots. */
const DYNAMIC = 'td, time, code, img, .who span, .numbers dd';

describe('dashboard: brand assets, certificates and document activity', { timeout: 300_000 }, () => {
  let server: TestServer;
  let team: TestTeam;
  let browser: Browser;
  let page: Page;
  const clock = referenceClock();

  // The browser first, so that it is closed (and its page errors checked) before the server.
  before(async () => {
    browser = await openBrowser({ clock });
    page = browser.page;
  });
  after(() => closeAll(browser));
  serverWithTeam('growth', (both) => ({ server, team } = both), { workers: 1 }, { clock });

  it('disables uploads in test mode with the reason beside them, then uploads a logo and a font in live mode', () =>
    step(page, 'brand', async () => {
      await signInNewOwner(page, server, team.team.id, OWNER_EMAIL, OWNER_PASSWORD);
      await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();

      await page.getByRole('link', { name: 'Brand', exact: true }).click();
      await page.getByRole('heading', { name: 'Brand assets', level: 1 }).waitFor();
      await page.getByRole('heading', { name: 'No logo or fonts yet' }).waitFor();
      await page.getByRole('radio', { name: 'Test' }).check();
      await page.locator('.mode-test').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Upload logo' }).isDisabled(), true);
      assert.equal(
        await page.locator('#upload-reason').textContent(),
        'Switch to Live to upload or delete brand assets.',
      );

      await page.getByRole('radio', { name: 'Live' }).check();
      await page.locator('.mode-live').waitFor();
      const logo = { name: 'logo.png', mimeType: 'image/png', buffer: logoPng() };
      await page.getByLabel('File').setInputFiles(logo);
      await page.getByRole('button', { name: 'Upload logo' }).click();
      await page.getByRole('status').filter({ hasText: 'Uploaded logo' }).waitFor();
      const preview = page.getByRole('img', { name: 'Logo Logo' });
      await waitFor('the logo preview to load', async () =>
        (await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)) > 0 ? true : null,
      );

      await page.getByRole('radio', { name: /^Font/ }).check();
      await page.getByLabel('Font name (used as brand.fonts.NAME)').fill('Body');
      await page.getByLabel('File').setInputFiles({
        name: 'LiberationSans-Regular.ttf',
        mimeType: 'font/ttf',
        buffer: readFileSync(FONT_FILE),
      });
      await page.getByRole('button', { name: 'Upload font' }).click();
      await page.getByRole('status').filter({ hasText: 'Uploaded font' }).waitFor();
      const fontRow = page.locator('tr').filter({ hasText: '{{ brand.fonts.Body.url }}' });
      await fontRow.waitFor();
      assert.match((await fontRow.textContent()) ?? '', /Liberation Sans/);
      assert.match((await fontRow.textContent()) ?? '', /TTF/);
      await page.locator('tr').filter({ hasText: '{{ brand.logo_url }}' }).waitFor();
      await checkPage(page, 'brand', DYNAMIC);

      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
      await page.getByRole('button', { name: 'Copy snippet for Body' }).click();
      await page
        .locator('.toast')
        .filter({ hasText: /^Copied snippet for Body\./ })
        .waitFor();
      await page.getByRole('button', { name: 'Delete font Body' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete the font Body?' });
      await dialog.getByRole('button', { name: 'Delete font' }).click();
      await fontRow.waitFor({ state: 'detached' });
      await page.locator('.toast').filter({ hasText: 'Deleted font Body.' }).waitFor();
      const listed = await api(server.base, 'GET', '/v1/brand-assets', { key: team.live });
      assert.deepEqual(
        listed.json.data.map((a: { kind: string }) => a.kind),
        ['logo'],
        'the font is gone, the logo stays',
      );
    }));

  it('uploads a signing certificate, lists it, offers it under "Sign with", and deletes it after confirming', () =>
    step(page, 'certificates', async () => {
      await page.getByRole('link', { name: 'Certificates' }).click();
      await page.getByRole('heading', { name: 'Certificates', level: 1 }).waitFor();
      await page.getByText('No certificates yet.').waitFor();
      await page.getByLabel('Name').fill('Billing');
      await page.getByLabel('PKCS#12 file (.p12 or .pfx, with the private key)').setInputFiles({
        name: 'billing.p12',
        mimeType: 'application/x-pkcs12',
        // Valid from the day before the server's (reference) today, which is not the machine's.
        buffer: makePkcs12({
          chain: true,
          passphrase: 'dashboard pass',
          notBefore: new Date(clock.now().getTime() - DAY_MS),
        }),
      });
      await page.getByLabel('Passphrase').fill('wrong');
      await page.getByRole('button', { name: 'Upload certificate' }).click();
      await page
        .locator('#certificates-error')
        .filter({ hasText: /passphrase/ })
        .waitFor();
      await page.getByLabel('Passphrase').fill('dashboard pass');
      await page.getByRole('button', { name: 'Upload certificate' }).click();
      const row = page.locator('tr').filter({ hasText: 'CN=Quire Test Signer' });
      await row.waitFor();
      assert.match((await row.textContent()) ?? '', /CN=Quire Test CA/);
      await checkPage(page, 'certificates', DYNAMIC);

      const template = await api(server.base, 'POST', '/v1/templates', {
        key: team.live,
        body: { name: 'Signed letter', html: '<p>Letter</p>' },
      });
      assert.equal(template.status, 201, template.text);
      await page.goto(`${server.base}/app/#/generate?template=${template.json.id}`);
      await page.getByRole('button', { name: 'Generate PDF' }).waitFor({ timeout: 60_000 });
      await page.getByText(/^PDF output: .*signature/).click();
      const sign = page.getByLabel('Sign with (a team certificate; not with a password)');
      await waitFor('the certificate in the select', async () =>
        (await sign.locator('option').count()) === 2 ? true : null,
      );
      assert.match((await sign.locator('option').nth(1).textContent()) ?? '', /Billing/);

      await page.getByRole('link', { name: 'Certificates' }).click();
      await page.getByRole('button', { name: 'Delete Billing' }).click();
      await page
        .getByRole('dialog', { name: 'Delete certificate Billing?' })
        .getByRole('button', { name: 'Delete certificate' })
        .click();
      await row.waitFor({ state: 'detached' });
      const listed = await api(server.base, 'GET', '/v1/certificates', { key: team.live });
      assert.deepEqual(listed.json.data, []);
    }));

  it('opens a document from the log and shows its activity from processing to succeeded', () =>
    step(page, 'activity', async () => {
      const made = await api(server.base, 'POST', '/v1/pdf', {
        key: team.live,
        body: { html: '<h1>Hello</h1><p style="page-break-after: always">One</p><p>Two</p>' },
      });
      assert.equal(made.status, 200, made.text);
      const id = made.headers.get('x-document-id') ?? '';
      assert.ok(id, 'the render names its document');

      await page.getByRole('link', { name: 'Documents' }).click();
      await page.getByRole('link', { name: `details of ${id}` }).click();
      await page.getByRole('heading', { name: 'Document', level: 1 }).waitFor();
      await page.getByTestId('document-status').filter({ hasText: 'succeeded' }).waitFor();
      await page.getByText('kept 30 days').waitFor();
      const rows = page.getByTestId('activity').locator('tbody tr');
      await rows.first().waitFor();
      const statuses = await rows.locator('th').allTextContents();
      assert.deepEqual(statuses.slice(-2), ['processing', 'succeeded']);
      assert.match((await rows.last().textContent()) ?? '', /2 pages/);
      assert.equal(
        await page.getByRole('link', { name: 'Download PDF' }).count(),
        1,
        'the download link is shown',
      );
      await checkPage(page, 'document-detail', DYNAMIC);
    }));
});
