import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  api,
  createTestSignInLink,
  serverWithTeam,
  type TestServer,
  type TestTeam,
} from '../../helpers/server.js';
import { assertAccessibleAndFits, type Browser, closeAll, openBrowser, step } from './browser.js';

/**
 * The first sign-in and the account page (web/src/pages/auth.tsx, account.tsx, src/users/account-routes.ts),
 * end to end: a reload during the one-time link's password step keeps the step, the account page changes the
 * password and lists and ends sessions, and a server without SMTP says where its emails go.
 */
const EMAIL = 'first-owner@example.com';
const FIRST = 'first password 123';
const SECOND = 'second password 456';

describe('dashboard: first sign-in and account', { timeout: 300_000 }, () => {
  let server: TestServer;
  let team: TestTeam;
  let browser: Browser;
  let page: Page;

  after(() => closeAll(browser));
  // No email sender given: like a server without QUIRE_SMTP_URL, emails go to the outbox.
  serverWithTeam('growth', (both) => ({ server, team } = both), { workers: 1 });
  before(async () => {
    browser = await openBrowser();
    page = browser.page;
  });

  it('keeps the password step of a one-time link through a reload', () =>
    step(page, 'account-first-link', async () => {
      // A PDF from plain HTML before any template exists: the checklist's template steps stay open.
      const html = await api(server.base, 'POST', '/v1/pdf', { key: team.live, body: { html: '<p>Hi</p>' } });
      assert.equal(html.status, 200, html.text);
      const link = await createTestSignInLink(server, EMAIL, team.team.id, 'owner');
      await page.goto(link.sign_in_url);
      const password = page.getByLabel('New password (10 to 200 characters)');
      await password.waitFor();
      await page.reload();
      // The link is spent, yet the session it started continues the step.
      await password.waitFor();
      assert.equal(await page.locator('[role="alert"]').count(), 0, 'no "link used" error');
      await password.fill(FIRST);
      await page.getByRole('button', { name: 'Save password' }).click();
      await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
      const checklist = page.getByTestId('first-run');
      await checklist.getByText('Get started: 0 of 5 done').waitFor();
    }));

  it('changes the password, lists the sessions and signs the others out', () =>
    step(page, 'account-page', async () => {
      // A second session of the same person, elsewhere.
      const other = await fetch(`${server.base}/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: EMAIL, password: FIRST }),
      });
      assert.equal(other.status, 200);
      await page.getByRole('link', { name: EMAIL, exact: true }).click();
      await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
      const note = page.getByTestId('email-setup');
      await note.waitFor();
      assert.match((await note.textContent()) ?? '', /DATA_DIR\/outbox.*QUIRE_SMTP_URL/);

      const rows = page.getByTestId('sessions').locator('tbody tr');
      await rows.nth(1).waitFor();
      assert.equal(await rows.filter({ hasText: 'this session' }).count(), 1);
      await assertAccessibleAndFits(page, 'account');
      await page.getByRole('button', { name: 'Sign out the other session' }).click();
      await page.getByRole('button', { name: 'Sign them out' }).click();
      await page.getByRole('button', { name: 'Sign out the other session' }).waitFor({ state: 'detached' });
      assert.equal(await rows.count(), 1);

      await page.getByLabel('Current password').fill(FIRST);
      await page.getByLabel('New password (10 to 200 characters)').fill(SECOND);
      await page.getByRole('button', { name: 'Save password' }).click();
      await page.getByText('Password saved.').waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Email', { exact: true }).fill(EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(SECOND);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    }));

  it("offers the team's only owner no Remove on themselves", () =>
    step(page, 'account-last-owner', async () => {
      await page.goto(`${server.base}/app/#/members`);
      const row = page.locator(`tr[data-member="${EMAIL}"]`);
      await row.getByText(/only owner/).waitFor();
      assert.equal(await row.getByRole('button', { name: /Remove/ }).count(), 0);
      assert.equal(await row.locator('select').count(), 0, 'no role change that would be refused');
    }));

  it('says where a reset link went when email is not configured', () =>
    step(page, 'account-reset-note', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Email', { exact: true }).fill(EMAIL);
      await page.getByRole('button', { name: 'Email me a password reset link' }).click();
      const note = page.getByTestId('email-setup');
      await note.waitFor();
      assert.match((await note.textContent()) ?? '', /DATA_DIR\/outbox/);
    }));
});
