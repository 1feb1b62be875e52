import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api } from '../../helpers/server.js';
import { ROOT } from '../ops/cli-quire.js';

describe('first run: the default team’s owner gets a sign-in link', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-first-run-'));
  let server: ChildProcess;
  let output = '';
  let base = '';
  before(async () => {
    server = spawn(process.execPath, [path.join(ROOT, 'bin', 'quire.mjs'), 'serve'], {
      env: {
        ...process.env,
        QUIRE_DATA_DIR: dataDir,
        // The first run on SQLite: this test is about the printed link, not the store.
        QUIRE_DATABASE_URL: '',
        QUIRE_FROM_SOURCE: '1',
        QUIRE_PORT: '0',
        QUIRE_HOST: '127.0.0.1',
        QUIRE_LOG_LEVEL: 'warn',
        QUIRE_WORKERS: '0',
        QUIRE_ADMIN_EMAIL: 'Boss@Example.com',
      },
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
      server.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /serving (http:\/\/[^\s]+)\/v1/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
  });
  after(async () => {
    if (server.exitCode === null) server.kill('SIGKILL');
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
