import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PlanId } from '../../../src/accounts/plans.js';
import { createApiKey, createTeam } from '../../../src/accounts/teams.js';
import { systemClock } from '../../../src/shared/clock.js';
import { type Db, openDatabase } from '../../../src/storage/db.js';
import { busyDocument } from '../../helpers/chromium.js';
import { createTestDatabase } from '../../helpers/database.js';
import { pdfText } from '../../helpers/pdf.js';
import { kill, NEEDS_POSTGRES, SERVING, type Started, startQuire } from '../../helpers/quire-process.js';
import { startS3Server, type TestS3 } from '../../helpers/s3.js';
import { api } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { type Receiver, startReceiver } from '../../helpers/webhook-receiver.js';

/** Async renders and batch items of the load phase (small HTML documents: the run stays within minutes). */
const ASYNC_RENDERS = 200;
const BATCH_ITEMS = 200;
/** After this many async requests, one API and one worker are killed with SIGKILL. */
const KILL_AT = 100;
/** Short leases so the killed worker's jobs and render slots come back within seconds, not a minute. */
const LEASE_MS = 4_000;

interface Key {
  teamId: string;
  live: string;
}

/**
 * The scaled-out deployment as real processes: two `quire serve` (APIs, no render workers) and two
 * `quire worker` on one PostgreSQL database and one S3 store (s3rver), each process with its own data directory
 * holding only the shared server secret. Budgets and render slots hold across the APIs; under load one API
 * and one worker are killed with SIGKILL, and still every document ends once, every event is delivered once
 * and every document is counted once.
 */
describe('a cluster of two APIs and two workers on PostgreSQL and S3', { skip: NEEDS_POSTGRES }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: TestS3;
  let receiver: Receiver;
  let db: Db;
  const dirs: string[] = [];
  const processes: Started[] = [];
  let apis: [Started, Started];
  let workers: [Started, Started];
  let bases: [string, string];

  before(async () => {
    database = await createTestDatabase();
    s3 = await startS3Server();
    receiver = await startReceiver();
    const secret = randomBytes(32).toString('hex');
    const env = (workersInProcess: number) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-cluster-'));
      dirs.push(dataDir);
      // Every process signs links and seals webhook secrets with the one server secret (docs/deployment.md: Running several processes).
      writeFileSync(path.join(dataDir, 'server-secret'), secret, { mode: 0o600 });
      return {
        QUIRE_DATA_DIR: dataDir,
        QUIRE_DATABASE_URL: database.url as string,
        QUIRE_STORAGE_URL: s3.url(),
        QUIRE_PORT: '0',
        QUIRE_LOG_LEVEL: 'warn',
        QUIRE_WORKERS: String(workersInProcess),
        QUIRE_RENDER_POOL_SIZE: '2',
        QUIRE_ALLOW_PRIVATE_WEBHOOKS: 'true',
        QUIRE_JOB_LEASE_MS: String(LEASE_MS),
        QUIRE_RENDER_LEASE_TTL_MS: String(LEASE_MS),
        QUIRE_IP_RATE_LIMIT: '100000',
      };
    };
    apis = [startQuire(env(0), ['serve'], SERVING), startQuire(env(0), ['serve'], SERVING)];
    workers = [
      startQuire(env(2), ['worker'], /Quire worker running/),
      startQuire(env(2), ['worker'], /Quire worker running/),
    ];
    processes.push(...apis, ...workers);
    const ready = await Promise.all(processes.map((p) => p.ready));
    bases = [ready[0]?.[1] as string, ready[1]?.[1] as string];
    db = await openDatabase(dirs[0] as string, database.url);
  });
  after(async () => {
    await Promise.all(processes.map(kill));
    await db?.destroy();
    await receiver?.close();
    await s3?.close();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const team = async (plan: PlanId): Promise<Key> => {
    const created = await createTeam(db, systemClock, { name: `Cluster ${plan}`, plan, emailVerified: true });
    const { key } = await createApiKey(db, systemClock, { teamId: created.id, mode: 'live', role: 'admin' });
    return { teamId: created.id, live: key };
  };

  it("holds a team's per-minute budget across both APIs", async () => {
    const free = await team('free'); // 30 requests a minute
    for (let i = 0; i < 30; i++) {
      const res = await api(bases[i % 2] as string, 'GET', '/v1/templates', { key: free.live });
      assert.equal(res.status, 200, `request ${i + 1}: ${res.text}`);
    }
    for (const base of bases) {
      const refused = await api(base, 'GET', '/v1/templates', { key: free.live });
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.json.error.code, 'rate_limited');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    }
  });

  it("holds a team's render slots across both APIs", async () => {
    const starter = await team('starter'); // 2 renders at once
    const held = bases.map((base) =>
      api(base, 'POST', '/v1/pdf', { key: starter.live, body: { html: busyDocument(3000) } }),
    );
    await sleep(1500);
    for (const base of bases) {
      const refused = await api(base, 'POST', '/v1/pdf', {
        key: starter.live,
        body: { html: '<p>third</p>' },
      });
      assert.equal(refused.status, 429, refused.text);
      assert.deepEqual(refused.json.error.details, { reason: 'concurrency', limit: 2 });
      assert.equal(refused.headers.get('retry-after'), '1');
    }
    for (const res of await Promise.all(held)) assert.equal(res.status, 200, res.text);
  });

  it('renders every async document and batch item exactly once while an API and a worker are killed', async () => {
    const load = await team('scale');
    const hook = await api(bases[0], 'POST', '/v1/webhooks', {
      key: load.live,
      body: { url: receiver.url('/cluster'), events: ['pdf.created', 'pdf.failed', 'batch.completed'] },
    });
    assert.equal(hook.status, 201, hook.text);
    const template = await api(bases[1], 'POST', '/v1/templates', {
      key: load.live,
      body: { name: 'Item', html: '<p>Item {{ number }}</p>', settings: { mode: 'fast' } },
    });
    assert.equal(template.status, 201, template.text);
    const batch = await api(bases[1], 'POST', '/v1/batches', {
      key: load.live,
      body: {
        template_id: template.json.id,
        items: Array.from({ length: BATCH_ITEMS }, (_, i) => ({ data: { number: i } })),
      },
    });
    assert.equal(batch.status, 202, batch.text);

    // The async renders, alternating between the APIs as a load balancer would, 8 at a time. A request to
    // the killed API fails on the connection and is sent again, with its Idempotency-Key, to the other one.
    // If the killed API had already taken the key, the key stays held until its lease ends (409
    // idempotency_conflict): that request is left unacknowledged; its document may or may not exist.
    const alive = [true, true];
    let receivedBeforeKill = 0;
    const started = Date.now();
    const ids = new Map<number, string>();
    const unacknowledged: number[] = [];
    const send = async (i: number): Promise<void> => {
      for (let attempt = 0; ; attempt++) {
        const which = alive[i % 2] && attempt === 0 ? i % 2 : 0;
        let res: Awaited<ReturnType<typeof api>>;
        try {
          res = await api(bases[which] as string, 'POST', '/v1/pdf', {
            key: load.live,
            headers: { 'idempotency-key': `cluster-${i}` },
            body: { html: `<p>Document ${i}</p>`, async: true },
          });
        } catch (err) {
          if (attempt > 3) throw err;
          await sleep(200);
          continue;
        }
        if (res.status === 409 && res.json?.error?.code === 'idempotency_conflict' && attempt > 0) {
          unacknowledged.push(i);
          return;
        }
        assert.equal(res.status, 202, res.text);
        ids.set(i, res.json.id as string);
        return;
      }
    };
    let next = 0;
    const lanes = Array.from({ length: 8 }, async () => {
      while (next < ASYNC_RENDERS) {
        const i = next++;
        if (i === KILL_AT) {
          alive[1] = false;
          apis[1].child.kill('SIGKILL');
          workers[0].child.kill('SIGKILL');
          // Deliveries the killed processes had sent arrive by now (the receiver records a request once its
          // body is in; a killed sender's socket closes at once).
          setTimeout(() => {
            receivedBeforeKill = receiver.received.length;
          }, 200);
        }
        await send(i);
      }
    });
    await Promise.all(lanes);
    assert.equal(ids.size + unacknowledged.length, ASYNC_RENDERS);
    assert.equal(
      new Set(ids.values()).size,
      ids.size,
      'one document per acknowledged request, retries included',
    );
    assert.ok(unacknowledged.length <= 8, `at most the requests in flight at the kill: ${unacknowledged}`);

    // Every document the cluster accepted: the acknowledged ones, the batch's items, and any the killed API
    // created for an unacknowledged request (those must finish like the others).
    const finished = (rows: { status: string }[]) =>
      rows.every((r) => r.status === 'succeeded' || r.status === 'failed');
    const docs = await waitFor(
      'every document to finish',
      async () => {
        const rows = await db
          .selectFrom('documents')
          .select(['id', 'status', 'batch_id'])
          .where('team_id', '=', load.teamId)
          .execute();
        return rows.length >= ids.size + BATCH_ITEMS && finished(rows) ? rows : null;
      },
      240_000,
      500,
    );
    const elapsed = Date.now() - started;
    const total = docs.length;
    const asyncDocs = docs.filter((d) => d.batch_id === null);
    assert.equal(new Set(docs.map((d) => d.id)).size, total);
    assert.ok(
      asyncDocs.length >= ids.size && asyncDocs.length <= ASYNC_RENDERS,
      `${asyncDocs.length} async documents for ${ids.size} acknowledged and ${unacknowledged.length} unacknowledged requests: no duplicates`,
    );
    assert.deepEqual(
      docs.filter((d) => d.status !== 'succeeded').map((d) => d.status),
      [],
      'every small document renders',
    );
    for (const id of ids.values())
      assert.ok(
        asyncDocs.some((d) => d.id === id),
        `document ${id} exists`,
      );
    assert.equal(docs.filter((d) => d.batch_id === batch.json.id).length, BATCH_ITEMS);
    const open = await db
      .selectFrom('jobs')
      .select(['id', 'kind', 'status'])
      .where('status', 'in', ['queued', 'running'])
      .where('kind', '=', 'render')
      .execute();
    assert.deepEqual(open, [], 'no render job is left queued or running');

    // Usage: one record per live document.
    const usage = await db
      .selectFrom('usage_records')
      .select('document_id')
      .where('team_id', '=', load.teamId)
      .execute();
    assert.equal(usage.length, total);
    assert.equal(new Set(usage.map((u) => u.document_id)).size, total);

    // Webhooks: one pdf.created per document, each delivered once, and one batch.completed.
    const events = await waitFor(
      'every webhook event',
      async () => {
        const parsed = receiver.received
          .filter((r) => r.path === '/cluster')
          .map((r) => JSON.parse(r.rawBody) as { id: string; type: string; data: { id: string } });
        const created = parsed.filter((e) => e.type === 'pdf.created');
        const completed = parsed.filter((e) => e.type === 'batch.completed');
        return new Set(created.map((e) => e.data.id)).size >= total && completed.length >= 1 ? parsed : null;
      },
      120_000,
      500,
    );
    await sleep(2 * LEASE_MS); // a delivery that would be sent twice (reclaimed after the kill) arrives by now
    const all = receiver.received
      .filter((r) => r.path === '/cluster')
      .map((r) => JSON.parse(r.rawBody) as { id: string; type: string; data: { id: string } });
    const created = all.filter((e) => e.type === 'pdf.created');
    assert.ok(events.length <= all.length);
    assert.equal(new Set(created.map((e) => e.data.id)).size, total, 'an event for every document');
    assert.equal(new Set(created.map((e) => e.id)).size, total, 'one event per document');
    // Each event is delivered once, except a delivery a killed process had sent but not yet recorded: its
    // job is reclaimed after the lease and sends the same event (same id) again. That is the at-least-once
    // of any HTTP webhook; receivers deduplicate by event id (spec: identical for re-sends).
    const resent = resends(receiver.received.filter((r) => r.path === '/cluster').map((r) => r.rawBody));
    for (const { id, copies, firstIndex } of resent) {
      assert.equal(copies, 2, `event ${id} delivered ${copies} times`);
      assert.ok(
        firstIndex < receivedBeforeKill,
        `event ${id} was re-sent though its first copy came after the kill`,
      );
    }
    assert.ok(resent.length <= 2 * 8, 'at most the deliveries in flight in the two killed processes');
    assert.equal(created.length - resent.length, total, 'every other event delivered once');
    assert.equal(all.filter((e) => e.type === 'pdf.failed').length, 0);
    assert.equal(all.filter((e) => e.type === 'batch.completed').length, 1);

    // The files are in the shared S3 store: any API serves any document.
    for (const i of [0, KILL_AT + 20, ASYNC_RENDERS - 1].filter((n) => ids.has(n))) {
      const doc = await api(bases[0], 'GET', `/v1/pdf/${ids.get(i)}`, { key: load.live });
      assert.equal(doc.status, 200, doc.text);
      const file = await fetch(doc.json.url as string);
      assert.equal(file.status, 200);
      assert.match(await pdfText(Buffer.from(await file.arrayBuffer())), new RegExp(`Document ${i}\\b`));
    }
    process.stdout.write(
      `# cluster: ${total} documents (${asyncDocs.length} async, ${unacknowledged.length} requests unacknowledged at the kill, + ${BATCH_ITEMS} batch items) finished ${elapsed} ms after the first request; ${resent.length} webhook deliveries re-sent after the kill\n`,
    );
  });
});

/** Events delivered more than once: their id, how many copies, and the index of the first copy. */
function resends(bodies: string[]): { id: string; copies: number; firstIndex: number }[] {
  const byId = new Map<string, { copies: number; firstIndex: number }>();
  bodies.forEach((body, index) => {
    const { id } = JSON.parse(body) as { id: string };
    const seen = byId.get(id);
    if (seen) seen.copies += 1;
    else byId.set(id, { copies: 1, firstIndex: index });
  });
  return [...byId].filter(([, v]) => v.copies > 1).map(([id, v]) => ({ id, ...v }));
}
