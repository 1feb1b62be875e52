import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase } from '../../helpers/database.js';
import { kill, type Serving, serveQuire } from '../../helpers/quire-process.js';
import { api } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { type Receiver, startReceiver } from '../../helpers/webhook-receiver.js';
import { createTemplate, unzipAll } from './helpers.js';

const ITEMS = 20;

/** The real server as its own process, so it can be killed with SIGKILL mid-batch (short job leases). */
function serve(dataDir: string, databaseUrl: string | null): Promise<Serving> {
  return serveQuire({
    QUIRE_DATA_DIR: dataDir,
    QUIRE_DATABASE_URL: databaseUrl ?? '',
    QUIRE_WORKERS: '1',
    QUIRE_ALLOW_PRIVATE_WEBHOOKS: '1',
  });
}

/** Distinct event ids per key (a delivery may repeat an event: at least once, same id). */
function eventsBy(
  rx: Receiver,
  type: string,
  keyOf: (data: { id: string }) => string,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of rx.received) {
    const event = JSON.parse(r.rawBody);
    if (event.type !== type) continue;
    const key = keyOf(event.data);
    out.set(key, (out.get(key) ?? new Set()).add(event.id));
  }
  return out;
}

describe('kill -9 of the server in the middle of a batch', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-batch-crash-'));
  const servers: Serving[] = [];
  let rx: Receiver;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  before(async () => {
    rx = await startReceiver();
    database = await createTestDatabase();
  });
  after(async () => {
    for (const server of servers) await kill(server);
    await rx.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('after restart every item ends once, and batch.completed is sent once with a full ZIP', async () => {
    const first = await serve(dataDir, database.url);
    servers.push(first);
    const base = first.base;
    const live = first.liveKey as string;
    assert.ok(live, first.output());
    const templateId = await createTemplate(base, live);
    const hook = await api(base, 'POST', '/v1/webhooks', {
      key: live,
      body: { url: rx.url('/crash'), events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
    });
    assert.equal(hook.status, 201, hook.text);
    const items = Array.from({ length: ITEMS }, (_, i) => ({
      data: { number: `K-${i}`, customer: { name: 'Crash' } },
    }));
    const batch = await api(base, 'POST', '/v1/batches', {
      key: live,
      body: { template_id: templateId, items, filename_pattern: '{{ number }}' },
    });
    assert.equal(batch.status, 202, batch.text);
    await waitFor('a few items to finish', async () => {
      const r = await api(base, 'GET', `/v1/batches/${batch.json.id}`, { key: live });
      return r.json.counts.succeeded >= 3 ? true : null;
    });
    await kill(first);

    const second = await serve(dataDir, database.url);
    servers.push(second);
    const base2 = second.base;
    // A job cut off by the kill is claimed again once its lease (TEST_PROCESS_ENV: 5 s) runs out.
    const done = await waitFor(
      'the batch to complete after the restart',
      async () => {
        const r = await api(base2, 'GET', `/v1/batches/${batch.json.id}`, { key: live });
        return r.json.completed_at ? r.json : null;
      },
      150_000,
    );
    assert.equal(done.status, 'completed');
    assert.equal(done.counts.succeeded, ITEMS);
    const zip = await unzipAll(Buffer.from(await (await fetch(done.zip.url)).arrayBuffer()));
    assert.deepEqual([...zip.keys()].sort(), items.map((i) => `${i.data.number}.pdf`).sort());

    await waitFor('every event', async () => {
      const created = eventsBy(rx, 'pdf.created', (d) => d.id);
      return created.size === ITEMS && eventsBy(rx, 'batch.completed', (d) => d.id).size === 1 ? true : null;
    });
    await new Promise((r) => setTimeout(r, 1_500));
    for (const [doc, ids] of eventsBy(rx, 'pdf.created', (d) => d.id))
      assert.equal(ids.size, 1, `pdf.created once for ${doc}`);
    assert.equal(eventsBy(rx, 'pdf.failed', (d) => d.id).size, 0);
    const completed = eventsBy(rx, 'batch.completed', (d) => d.id);
    assert.equal(completed.get(batch.json.id)?.size, 1, 'batch.completed once');
    const usage = await api(base2, 'GET', '/v1/account/usage', { key: live });
    assert.equal(usage.json.docs_used, ITEMS, 'each item counted once');
  });
});
