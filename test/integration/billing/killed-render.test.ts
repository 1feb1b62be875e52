import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase } from '../../helpers/database.js';
import { kill, type Serving, serveQuire, waitForRendering } from '../../helpers/quire-process.js';
import { api } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';

/** A document whose script keeps the render busy for about 20 s: the process is killed long before. */
const BUSY = '<script>const end = Date.now() + 20000; while (Date.now() < end) {}</script><p>slow</p>';
const QUICK = '<p>quick</p>';
/** The hold lifetime on PostgreSQL (QUIRE_RENDER_LEASE_TTL_MS): the bound after which a dead process's holds go. */
const TTL_MS = 2_000;

/** `quire serve` with `env`; resolves once it serves. */
const serve = (env: Record<string, string>): Promise<Serving> => serveQuire(env);

const render = (base: string, key: string, html: string) =>
  api(base, 'POST', '/v1/pdf', { key, body: { html } });

/**
 * A direct render reserves its document before rendering; a process killed (SIGKILL) mid-render must not
 * keep that reservation until the period ends. SQLite: the restarted process gives it back at start.
 * PostgreSQL (QUIRE_TEST_DATABASE_URL): the dead holder's hold expires and is given back within the bound.
 */
describe('a direct render killed mid-render gives its usage reservation back', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-killed-'));
  const plansFile = path.join(dataDir, 'plans.json');
  let database: { url: string | null; drop(): Promise<void> };
  let served: Serving | undefined;
  let env: Record<string, string>;
  before(async () => {
    database = await createTestDatabase();
    // The default team's plan includes 2 documents and no overage.
    writeFileSync(plansFile, JSON.stringify({ scale: { docs_per_period: 2, overage_cents_per_doc: null } }));
    env = {
      QUIRE_DATA_DIR: dataDir,
      QUIRE_PLANS_FILE: plansFile,
      QUIRE_WORKERS: '0',
      QUIRE_METRICS: 'public',
      QUIRE_RENDER_LEASE_TTL_MS: String(TTL_MS),
      ...(database.url ? { QUIRE_DATABASE_URL: database.url } : {}),
    };
  });
  after(async () => {
    if (served) await kill(served);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('after SIGKILL and a restart, the team renders its last included documents', async () => {
    served = await serve(env);
    const key = served.liveKey;
    assert.ok(key, served.output());
    assert.equal((await render(served.base, key, QUICK)).status, 200);

    const slow = render(served.base, key, BUSY).catch(() => null);
    // While the slow render (reserved at once, then rendering) holds the second document, a third is refused.
    await waitForRendering(served);
    const refused = await render(served.base, key, QUICK);
    assert.equal(refused.status, 402, refused.text);
    assert.equal(refused.json.error.code, 'plan_limit_reached');
    await kill(served);
    await slow;

    served = await serve(env);
    const usage = await api(served.base, 'GET', '/v1/account/usage', { key });
    assert.equal(usage.status, 200, usage.text);
    assert.equal(usage.json.docs_used, 1);
    assert.equal(usage.json.docs_included, 2);
    // SQLite: given back at start. PostgreSQL: once the dead process's hold is past its lifetime.
    const second = await waitFor(
      'the killed render reservation to be given back',
      async () => {
        const r = await render(served?.base ?? '', key, QUICK);
        return r.status === 200 ? r : null;
      },
      database.url ? TTL_MS * 5 : 1_000,
      250,
    );
    assert.equal(second.headers.get('content-type'), 'application/pdf');
    // The plan's 2 documents are used now: the next is refused, and usage shows both.
    const third = await render(served.base, key, QUICK);
    assert.equal(third.json?.error?.code, 'plan_limit_reached', third.text);
    const after = await api(served.base, 'GET', '/v1/account/usage', { key });
    assert.equal(after.json.docs_used, 2);
  });
});
