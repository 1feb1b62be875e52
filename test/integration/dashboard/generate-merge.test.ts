import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { newId } from '../../../src/shared/ids.js';
import { versionRow } from '../../../src/templates/records.js';
import { insertTemplate } from '../../../src/templates/repository.js';
import { pdfText, pdfTool } from '../../helpers/pdf.js';
import { api, type TestServer, type TestTeam } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { checkAttachments, checkProtect, type FinishingBody } from '../pdf/finishing-checks.js';
import { type TestServer as PageServer, serverWithPages } from '../render/helpers.js';
import {
  assertAccessible,
  assertAccessibleAndFits,
  type Browser,
  closeAll,
  generatePdf,
  openSignedInBrowser,
  step,
} from './browser.js';

/**
 * The generate form's extensions, end to end in a real browser against a real server: merging a stored
 * document and an uploaded PDF (issue 27 item 3), and capturing a URL with a wait (items 4–5).
 */

describe('dashboard: generate with merged PDFs and from a URL', { timeout: 300_000 }, () => {
  let pages: PageServer;
  let server: TestServer;
  let team: TestTeam;
  let browser: Browser;
  let page: Page;
  let templateId: string;
  let upload: Buffer;
  let termsId: string;

  // Registered first, so the browser closes (and its page errors are checked) before the servers.
  after(() => closeAll(browser));
  const late: http.RequestListener = (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<html><head><title>Late page</title></head><body><p>early</p><script>setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'ARRIVED LATE'; document.body.append(p); }, 700);</script></body></html>`,
      );
  // Pro: a plan whose teams may keep more templates than one page of the API's list (100).
  serverWithPages({ '/late': late }, 'pro', { workers: 1 }, (all) => ({ pages, server, team } = all));
  before(async () => {
    const template = await api(server.base, 'POST', '/v1/templates', {
      key: team.live,
      body: { name: 'Letter', html: '<p>Letter {{ number }}</p>', sample_data: { number: 'L-1' } },
    });
    assert.equal(template.status, 201, template.text);
    templateId = template.json.id as string;
    const terms = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { html: '<p>Stored terms</p>', response: 'url' },
    });
    assert.equal(terms.status, 200, terms.text);
    termsId = terms.json.id as string;
    const uploaded = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { html: '<p>Uploaded annex</p><p style="break-before:page">Annex page 2</p>' },
    });
    upload = uploaded.buffer;
    browser = await openSignedInBrowser(
      server,
      team.team.id,
      'merge-owner@example.com',
      'owner password 123',
    );
    page = browser.page;
  });

  it('prepends a stored document picked from the list and appends an uploaded PDF', () =>
    step(page, 'generate-merge', async () => {
      await page.goto(`${server.base}/app/#/generate?template=${templateId}`);
      await page.getByRole('button', { name: 'Generate PDF' }).waitFor({ timeout: 60_000 });
      await page.getByText('Merge PDFs: add pages before or after the document').click();
      await page.getByLabel('Add to').selectOption('prepend');
      await page.locator(`#merge-document option[value="${termsId}"]`).waitFor({ state: 'attached' });
      await page.getByLabel('A generated document').selectOption(termsId);
      await page.getByRole('button', { name: 'Add the document' }).click();
      await page.getByLabel('Add to').selectOption('append');
      await page.getByLabel('Or upload a PDF').setInputFiles({
        name: 'annex.pdf',
        mimeType: 'application/pdf',
        buffer: upload,
      });
      await page.getByRole('button', { name: 'Remove File annex.pdf' }).waitFor();
      assert.equal(await page.getByRole('button', { name: /^Remove Document / }).count(), 1);
      await assertAccessibleAndFits(page, 'generate-merge');
      const pdf = await generatePdf(page);
      await page.getByRole('status').filter({ hasText: 'Generated 4 pages' }).waitFor({ timeout: 60_000 });
      assert.match(await pdfText(pdf, 1), /Stored terms/);
      assert.match(await pdfText(pdf, 2), /Letter L-1/);
      assert.match(await pdfText(pdf, 3), /Uploaded annex/);
      assert.match(await pdfText(pdf, 4), /Annex page 2/);
    }));

  it('embeds an attachment and protects the PDF chosen in the "PDF output" section', () =>
    step(page, 'generate-attachment', async () => {
      const csv = 'id,amount\n1,9.50\n';
      await page.goto(`${server.base}/app/#/generate?template=${templateId}`);
      // A fresh form: the merged PDFs chosen before stay in the page's state otherwise.
      await page.reload();
      await page.getByRole('button', { name: 'Generate PDF' }).waitFor({ timeout: 60_000 });
      await page.getByText(/^PDF output: PDF\/A/).click();
      await page.getByLabel('Add files').setInputFiles({
        name: 'lines.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await page.getByRole('button', { name: 'Remove lines.csv' }).waitFor();
      assert.equal(await page.locator('#generate-attachment-0-mime').inputValue(), 'text/csv');
      await page.locator('#generate-attachment-0-description').fill('The invoice lines');
      await page.locator('#generate-attachment-0-relationship').selectOption('Data');
      await page.getByLabel(/^Owner password/).fill('dashboard-owner');
      await page.getByLabel('Open password (optional)').fill('dashboard-user');
      await assertAccessibleAndFits(page, 'generate-attachment');
      const pdf = await generatePdf(page);
      await page.getByRole('status').filter({ hasText: 'Generated 1 page' }).waitFor({ timeout: 60_000 });
      const body: FinishingBody = {
        attachments: [
          {
            filename: 'lines.csv',
            content_base64: Buffer.from(csv).toString('base64'),
            mime_type: 'text/csv',
            description: 'The invoice lines',
            relationship: 'Data',
          },
        ],
        protect: { owner_password: 'dashboard-owner', user_password: 'dashboard-user' },
      };
      const list = await pdfTool('pdfdetach', ['-list', '-upw', 'dashboard-user'], pdf);
      assert.match(list.stdout, /1 embedded files\n1: lines\.csv/);
      await checkAttachments(pdf, body);
      await checkProtect(pdf, body);
    }));

  it('captures a URL once the selector appears', () =>
    step(page, 'generate-url', async () => {
      await page.goto(`${server.base}/app/#/generate`);
      // A fresh form: the merge choices of the step before are not carried over.
      await page.reload();
      await page.getByLabel('Source').selectOption('url');
      await page.getByLabel('Page URL (http or https)').fill(`${pages.origin}/late`);
      await page.getByLabel('CSS selector that must appear').fill('#late');
      await assertAccessible(page, 'generate-url');
      const pdf = await generatePdf(page);
      await page.getByRole('status').filter({ hasText: 'Generated 1 page' }).waitFor({ timeout: 60_000 });
      assert.match(await pdfText(pdf), /ARRIVED LATE/);
    }));

  it("offers every template to generate from, past the API's first page of 100", () =>
    step(page, 'generate-many-templates', async () => {
      // Written to the database: through the API the spec's 60 template changes a minute would take two.
      const { db } = server.built.services;
      const at = new Date().toISOString();
      let last = '';
      for (let i = 1; i <= 100; i++) {
        last = newId();
        const name = `Extra ${String(i).padStart(3, '0')}`;
        const template = { id: last, team_id: team.team.id, name, current_version: 1, pinned_version: null };
        await insertTemplate(
          db,
          { ...template, created_at: at, updated_at: at, deleted_at: null },
          versionRow(last, 1, { html: '<p>x</p>', css: null, sampleData: null, settings: {} }, at),
        );
      }
      await page.goto(`${server.base}/app/#/generate`);
      await page.reload();
      const choice = page.locator('#generate-template');
      // "Choose a template…", then the 101 templates.
      await waitFor('every template listed', async () =>
        (await choice.locator('option').count()) === 102 ? true : null,
      );
      await choice.selectOption(last);
      await waitFor('the chosen template in the address', async () =>
        page.url().endsWith(`/generate?template=${last}`) ? true : null,
      );
    }));
});
