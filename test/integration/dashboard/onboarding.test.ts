import assert from 'node:assert/strict';

import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';
import { type Receiver, startReceiver } from '../../helpers/webhook-receiver.js';
import {
  assertAccessibleAndFits,
  type Browser,
  closeAll,
  openBrowser,
  settled,
  signInNewOwner,
  step,
} from './browser.js';

/**
 * Issue 30 items 5, 6 and 8 in a real browser: a new owner starts from the template gallery with the first-run
 * checklist, generates, sees the usage chart and a document's detail with true numbers and names, and
 * debugs a webhook on loopback from the delivery log. Real server (SQLite, Chromium renders), real receiver.
 */
const OWNER_EMAIL = 'onboarding-owner@example.com';
const OWNER_PASSWORD = 'owner password 123';

describe('dashboard: gallery, first run, true numbers, webhooks you can develop against', {
  timeout: 400_000,
}, () => {
  let server: TestServer;
  let team: TestTeam;
  let browser: Browser;
  let page: Page;
  let receiver: Receiver;

  before(async () => {
    server = await startTestServer({ workers: 1, allowPrivateWebhooks: true });
    team = await server.team('growth');
    // A developer's receiver on loopback: the first answer fails with a JSON body, later ones succeed.
    receiver = await startReceiver();
    receiver.behave((_req, res) => {
      if (receiver.received.length === 1)
        res
          .writeHead(500, { 'content-type': 'application/json', 'x-debug': 'first' })
          .end('{"error":"db down"}');
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
    browser = await openBrowser();
    page = browser.page;
  });
  after(() => closeAll(browser, server, receiver));

  it('starts from the gallery with the first-run checklist and generates a document', () =>
    step(page, 'onboarding', async () => {
      await signInNewOwner(page, server, team.team.id, OWNER_EMAIL, OWNER_PASSWORD);
      const checklist = page.getByTestId('first-run');
      await checklist.getByText('Get started: 0 of 5 done').waitFor();

      await checklist.getByRole('link', { name: 'Open the gallery' }).click();
      await page.getByRole('heading', { name: 'Template gallery', level: 1 }).waitFor();
      const cards = page.getByTestId('gallery').locator('li');
      await cards.nth(5).waitFor();
      // Every thumbnail is a real picture the browser decoded.
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll<HTMLImageElement>('.gallery img')].every(
            (img) => img.complete && img.naturalWidth === 480,
          ),
        undefined,
        { timeout: 120_000 },
      );
      await assertAccessibleAndFits(page, 'gallery');

      await page.getByRole('button', { name: 'Use Invoice' }).click();
      await page.waitForURL(/#\/templates\/[0-9a-f-]{36}$/);
      const templateId = page.url().split('/').at(-1) ?? '';
      // The editor's live preview marks the preview step.
      await page.waitForFunction(
        () => localStorage.getItem('quire.onboarding.previewed') === '1',
        undefined,
        {
          timeout: 60_000,
        },
      );

      const made = await api(server.base, 'POST', '/v1/pdf', {
        key: team.live,
        body: { template_id: templateId, data: {} },
      });
      assert.equal(made.status, 200, made.text);
      await page.goto(`${server.base}/app/#/templates`);
      await checklist.getByText('Get started: 4 of 5 done').waitFor();
      assert.deepEqual(
        await checklist.locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-done'))),
        ['true', 'true', 'true', 'true', 'false'],
        'only the webhook is left',
      );
      await checklist.getByText('QUIRE_ALLOW_PRIVATE_WEBHOOKS=true').waitFor();
    }));

  it('shows the document with its template’s name, grouped numbers and no raw warnings', () =>
    step(page, 'document', async () => {
      const docs = await api(server.base, 'GET', '/v1/documents?limit=1', { key: team.live });
      const doc = docs.json.data[0];
      await page.goto(`${server.base}/app/#/documents/${doc.id}`);
      await page.getByTestId('document-template').filter({ hasText: 'Invoice · version 1' }).waitFor();
      assert.equal(
        (await page.getByTestId('document-template').textContent())?.includes(doc.template_id),
        false,
      );
      // Rendered with no data, the invoice reports its missing variables: as sentences, never as JSON.
      const warnings = await page.getByTestId('warnings').locator('li').allTextContents();
      assert.ok(warnings.length > 0);
      for (const w of warnings) assert.match(w, /^missing_variable: /, w);
      assert.equal(await page.getByText(/Warnings: \[/).count(), 0, 'no raw JSON');
    }));

  it('draws the usage chart from the daily aggregate with axis labels and grouped totals', () =>
    step(page, 'usage', async () => {
      await page.goto(`${server.base}/app/#/usage`);
      const chart = page.getByTestId('bar-chart');
      await chart.waitFor();
      // One live document today: one bar with a height, and a count axis starting at 0.
      const bars = await chart
        .locator('rect.series-live')
        .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('height'))));
      assert.equal(bars.length, 1);
      assert.ok((bars[0] ?? 0) > 10, `the bar is drawn (${bars[0]} px high)`);
      assert.ok((await chart.locator('.tick text').allTextContents()).includes('0'));
      assert.ok((await chart.locator('text.day').count()) > 0, 'days are labelled');
      await page.getByTestId('chart-totals').filter({ hasText: '1 live, 0 test documents' }).waitFor();
      await assertAccessibleAndFits(page, 'usage');
    }));

  it('debugs a loopback webhook from the delivery log: exchange shown, refreshed while pending, resent', () =>
    step(page, 'webhooks', async () => {
      await page.goto(`${server.base}/app/#/webhooks`);
      await page.getByLabel('Endpoint URL').fill(receiver.url('/hooks'));
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      await page.getByTestId('webhook-secret').waitFor();
      await page.getByRole('button', { name: 'Send test event' }).click();
      // No clicks on Refresh: the log refreshes itself until the attempt is logged.
      const row = page.locator('tr[data-delivery]').first();
      await row.locator('.delivery-status').filter({ hasText: 'failed' }).waitFor({ timeout: 60_000 });
      await row.getByText('Request and response').click();
      await row.getByTestId('response-status').filter({ hasText: '500' }).waitFor();
      assert.match((await row.getByTestId('response-body').textContent()) ?? '', /"error": "db down"/);
      assert.match((await row.getByTestId('request-body').textContent()) ?? '', /"type": "pdf\.created"/);
      await row.getByText('quire-signature').waitFor();
      await assertAccessibleAndFits(page, 'webhooks-exchange');

      await row.getByRole('button', { name: /Resend/ }).click();
      await row.locator('.delivery-status').filter({ hasText: 'succeeded' }).waitFor({ timeout: 60_000 });
      await row.getByTestId('response-status').filter({ hasText: '200' }).waitFor();
      assert.equal(receiver.received.length, 2);

      // Disabled and enabled again from its card: the card shows the endpoint's status as the API has it.
      const card = page.locator('article.endpoint').first();
      await card.getByRole('button', { name: 'Disable' }).click();
      await card.getByRole('status').filter({ hasText: 'Disabled.' }).waitFor();
      await card.getByText(/· disabled ·/).waitFor();
      await card.getByRole('button', { name: 'Enable' }).click();
      await card.getByRole('status').filter({ hasText: 'Enabled.' }).waitFor();
      await card.getByText(/· enabled ·/).waitFor();

      await page.goto(`${server.base}/app/#/templates`);
      await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
      // The checklist's own requests done: before they answer it is absent anyway.
      await settled(page);
      assert.equal(
        await page.getByTestId('first-run').count(),
        0,
        'the checklist is gone once every step is done',
      );
    }));
});
