import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { makeUser, signIn } from '../users/dashboard.js';
import { assertAccessible, type Browser, closeAll, openSignedInBrowser, step } from './browser.js';

/**
 * The members page and the API keys a demoted or removed admin made (web/src/pages/members.tsx): the
 * confirmation lists them and offers to revoke them, end to end with a real server and a real browser.
 */
const OWNER_EMAIL = 'keys-owner@example.com';
const OWNER_PASSWORD = 'owner password 123';
const ADMIN_EMAIL = 'keys-admin@example.com';

describe('dashboard: the API keys of a demoted or removed member', { timeout: 300_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  /** The admin's keys: one made in the dashboard session, one made through that key. */
  const keys: Array<{ name: string; secret: string }> = [];

  const keyStatus = async (secret: string) =>
    (await api(server.base, 'GET', '/v1/me', { key: secret })).status;

  before(async () => {
    server = await startTestServer();
    const team = await server.team('growth');
    await makeUser(server, team.team.id, 'admin', ADMIN_EMAIL);
    const admin = await signIn(server, ADMIN_EMAIL);
    assert.equal((await admin.call('PUT', '/v1/session/mode', { mode: 'live' })).status, 200);
    const made = await admin.call('POST', '/v1/keys', { name: 'Automation', mode: 'live', role: 'admin' });
    assert.equal(made.status, 201, made.text);
    const child = await api(server.base, 'POST', '/v1/keys', {
      key: made.json.secret,
      body: { name: 'Nightly', mode: 'test' },
    });
    assert.equal(child.status, 201, child.text);
    keys.push(
      { name: 'Automation', secret: made.json.secret },
      { name: 'Nightly', secret: child.json.secret },
    );
    browser = await openSignedInBrowser(server, team.team.id, OWNER_EMAIL, OWNER_PASSWORD);
    page = browser.page;
  });
  after(() => closeAll(browser, server));

  it('lists their keys before a demotion; cancelled, nothing changes; confirmed unticked, the keys keep working', () =>
    step(page, 'member-keys-demote', async () => {
      await page.goto(`${server.base}/app/#/members`);
      const role = page.getByLabel(`Role of ${ADMIN_EMAIL}`);
      await role.waitFor();
      await role.selectOption('member');
      const dialog = page.getByRole('dialog', { name: `Make ${ADMIN_EMAIL} member?` });
      await dialog.waitFor();
      const listed = await dialog.getByRole('listitem').allTextContents();
      assert.deepEqual(
        listed.map((item) => item.replace(/ \(.*$/, '')).sort(),
        ['Automation', 'Nightly'],
        'both keys, the one made through a key too',
      );
      assert.ok(
        listed.every((item) => /\(qk_(live|test)_\w+…, (live|test)\)$/.test(item)),
        listed.join(' | '),
      );
      const box = dialog.getByRole('checkbox', { name: 'Also revoke the 2 API keys they created' });
      assert.equal(await box.isChecked(), false, 'unticked at first');
      await assertAccessible(page, 'members: demotion confirmation');

      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await role.inputValue(), 'admin', 'the select shows the role they still have');

      await role.selectOption('member');
      await dialog.getByRole('button', { name: 'Change role' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `${ADMIN_EMAIL} is now member` })
        .filter({ hasText: 'The 2 API keys they created still work.' })
        .waitFor();
      for (const { secret } of keys) assert.equal(await keyStatus(secret), 200);
    }));

  it('removes the member and, ticked, revokes the keys they made in the same step', () =>
    step(page, 'member-keys-remove', async () => {
      await page.getByRole('button', { name: `Remove ${ADMIN_EMAIL}` }).click();
      const dialog = page.getByRole('dialog', { name: `Remove ${ADMIN_EMAIL} from the team?` });
      await dialog.waitFor();
      assert.match((await dialog.locator('#confirm-body').textContent()) ?? '', /keep working unless/);
      assert.equal(await dialog.getByRole('listitem').count(), 2);
      await dialog.getByRole('checkbox', { name: 'Also revoke the 2 API keys they created' }).check();
      await dialog.getByRole('button', { name: 'Remove member' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `${ADMIN_EMAIL} removed. The 2 API keys they created were revoked.` })
        .waitFor();
      await page.locator(`[data-member="${ADMIN_EMAIL}"]`).waitFor({ state: 'detached' });
      for (const { secret } of keys) assert.equal(await keyStatus(secret), 401, 'a revoked key is refused');
    }));
});
