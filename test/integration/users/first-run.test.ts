import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kill, type Serving, serveQuire } from '../../helpers/quire-process.js';
import { api } from '../../helpers/server.js';

describe('first run: the default team’s owner gets a sign-in link', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-first-run-'));
  let server: Serving;
  let output = '';
  let base = '';
  before(async () => {
    server = await serveQuire({
      QUIRE_DATA_DIR: dataDir,
      // The first run on SQLite: this test is about the printed link, not the store.
      QUIRE_DATABASE_URL: '',
      QUIRE_WORKERS: '0',
      QUIRE_ADMIN_EMAIL: 'Boss@Example.com',
    });
    output = server.stdout();
    base = server.base;
  });
  after(async () => {
    if (server) await kill(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the owner’s single-use link beside the keys, on the bound port', async () => {
    assert.match(output, /Live key: qk_live_/);
    assert.match(output, /Dashboard owner boss@example\.com: sign in within 24 hours/);
    const link = /(http:\/\/\S+\/app\/#\/auth\/link\?token=(\S+))/.exec(output);
    assert.ok(link?.[1] && link[2], output);
    assert.ok(link[1].startsWith(`${base}/app/`), `${link[1]} is under ${base}`);
    const signedIn = await api(base, 'POST', '/v1/auth/link', {
      body: { token: decodeURIComponent(link[2]) },
    });
    assert.equal(signedIn.status, 200, signedIn.text);
    assert.equal(signedIn.json.role, 'owner');
    assert.equal(signedIn.json.team.name, 'Default team');
    assert.equal(signedIn.json.user.has_password, false);
    const again = await api(base, 'POST', '/v1/auth/link', { body: { token: decodeURIComponent(link[2]) } });
    assert.equal(again.json.error.code, 'invalid_token');
  });
});
