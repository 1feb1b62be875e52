import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import {
  bundleOrSource,
  kill,
  type Serving,
  type Started,
  serveQuire,
  sqliteDataDir,
  startQuire,
  terminate,
  userCreateArgs,
} from '../../helpers/quire-process.js';
import { api } from '../../helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('first run: the default team’s owner gets a sign-in link', () => {
  // The first run on SQLite: this test is about the printed link, not the store.
  const { env, remove } = sqliteDataDir('quire-first-run-', {
    QUIRE_WORKERS: '0',
    QUIRE_ADMIN_EMAIL: 'Boss@Example.com',
  });
  let server: Serving;
  let output = '';
  let base = '';
  before(async () => {
    server = await serveQuire(env);
    output = server.output();
    base = server.base;
  });
  after(async () => {
    if (server) await kill(server);
    remove();
  });

  it('prints the owner’s single-use link beside the keys, on the bound port', async () => {
    assert.match(output, /Live key: qk_live_/);
    assert.match(output, /Dashboard owner boss@example\.com: sign in within 24 hours/);
    // The link stands in a text line on a terminal, in a JSON record (stderr) otherwise.
    const link = /(http:\/\/[^\s"]+\/app\/#\/auth\/link\?token=([\w-]+))/.exec(output);
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

/**
 * No lock-out: the one-time output (keys, owner link) comes only from a process that is serving. A
 * busy port on the first start prints none of it and creates nothing; the next start is the first run; later
 * starts print a fresh owner link until the owner signs in, then none.
 */
describe('first run on a busy port, and later starts', () => {
  const { env, remove } = sqliteDataDir('quire-first-run-busy-', {
    QUIRE_WORKERS: '0',
    QUIRE_ADMIN_EMAIL: 'owner@example.com',
  });
  let running: Started | null = null;

  /** Starts `quire serve`; resolves with its output once it serves (base set) or once it exits (code set). */
  async function serve(port: number): Promise<{ output: string; base?: string; code?: number | null }> {
    const started = startQuire(
      { ...env, QUIRE_PORT: String(port) },
      ['serve'],
      /serving (http:\/\/[^\s]+)\/v1/,
    );
    running = started;
    try {
      const match = await started.ready;
      return { output: started.output(), base: match[1] };
    } catch {
      const code = await started.exit;
      await started.closed;
      return { output: started.output(), code };
    }
  }

  async function stop(): Promise<void> {
    const started = running;
    running = null;
    if (started) await terminate(started);
  }

  after(async () => {
    await stop();
    remove();
  });

  it('prints no keys or link when the port is busy, and the next start is the first run', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busyPort = (blocker.address() as { port: number }).port;
    const failed = await serve(busyPort).finally(() => blocker.close());
    assert.notEqual(failed.code, 0, failed.output);
    assert.match(failed.output, new RegExp(`port ${busyPort} on 127\\.0\\.0\\.1 is already in use`));
    assert.doesNotMatch(failed.output, /Live key|Test key|Dashboard owner|sign in|serving/i);

    const first = await serve(0);
    assert.ok(first.base, first.output);
    assert.match(first.output, /Live key: qk_live_\w+/);
    assert.match(first.output, /Test key: qk_test_\w+/);
    assert.match(first.output, /Dashboard owner owner@example\.com: sign in within 24 hours/);
    assert.match(first.output, new RegExp(`${first.base}/app/#/auth/link\\?token=`));
    await stop();
  });

  it('prints a fresh owner link at each start until the owner signs in, never the keys again', async () => {
    const second = await serve(0);
    assert.ok(second.base, second.output);
    assert.doesNotMatch(second.output, /Live key|Test key|Created the default team/);
    const token = /\/app\/#\/auth\/link\?token=([\w-]+)/.exec(second.output)?.[1];
    assert.ok(token, `a fresh link: ${second.output}`);
    assert.match(second.output, /a new link at every start until the owner signs in/);

    // `quire user create` (the documented recovery path) links to the running server's address, which the
    // CLI's own environment (no QUIRE_PORT, no QUIRE_PUBLIC_URL) does not know.
    const team = (
      await api(second.base, 'POST', '/v1/auth/link', { body: { token: decodeURIComponent(token) } })
    ).json;
    assert.equal(team.role, 'owner', JSON.stringify(team));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        path.join(ROOT, 'bin', 'quire.mjs'),
        ...userCreateArgs('owner@example.com', team.team.id, 'owner'),
        '--json',
      ],
      { env: { ...process.env, ...env, ...bundleOrSource() }, cwd: ROOT },
    );
    const recovery = JSON.parse(stdout) as { sign_in_url: string };
    assert.ok(recovery.sign_in_url.startsWith(`${second.base}/app/#/auth/link?token=`), recovery.sign_in_url);
    await stop();

    // Signed in above: a restart prints no link.
    const third = await serve(0);
    assert.ok(third.base, third.output);
    assert.doesNotMatch(third.output, /Dashboard owner|auth\/link|Live key/);
  });
});
