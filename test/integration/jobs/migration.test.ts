import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { processPools } from '../../../src/jobs/background.js';
import { JobRegistry } from '../../../src/jobs/registry.js';
import { startWorkers } from '../../../src/jobs/worker.js';
import { ManualClock } from '../../../src/shared/clock.js';
import { type Db, openDatabase } from '../../../src/storage/db.js';
import { migration0001Accounts } from '../../../src/storage/migrations/0001_accounts.js';
import { migration0002Documents } from '../../../src/storage/migrations/0002_documents.js';
import { migration0003Templates } from '../../../src/storage/migrations/0003_templates.js';
import { migration0004JobsWebhooks } from '../../../src/storage/migrations/0004_jobs_webhooks.js';
import { loadServerSecret } from '../../../src/storage/server-secret.js';
import { createWebhookJobs } from '../../../src/webhooks/delivery-job.js';
import { createSecretBox } from '../../../src/webhooks/secret-box.js';
import { type Receiver, startReceiver } from '../../helpers/webhook-receiver.js';

const T = '2026-01-15T12:00:00.000Z';
const DUE = '2026-01-15T12:30:00.000Z';

/** An install upgraded from the separate webhook dispatcher keeps its waiting deliveries on the one queue. */
describe('migration 0005: waiting deliveries move onto the job queue', () => {
  let dataDir: string;
  let rx: Receiver;
  let db: Db;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'quire-migrate-'));
    rx = await startReceiver();
    const old = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new SqliteDatabase(path.join(dataDir, 'quire.sqlite')) }),
    });
    const migrations = {
      '0001_accounts': migration0001Accounts,
      '0002_documents': migration0002Documents,
      '0003_templates': migration0003Templates,
      '0004_jobs_webhooks': migration0004JobsWebhooks,
    };
    const result = await new Migrator({
      db: old,
      provider: { getMigrations: async () => migrations },
    }).migrateToLatest();
    assert.equal(result.error, undefined);
    const sealed = createSecretBox(loadServerSecret(dataDir)).seal('whsec_old');
    await sql`insert into teams (id, name, plan, created_at) values ('t1', 'Old', 'growth', ${T})`.execute(
      old,
    );
    await sql`insert into webhook_endpoints (id, team_id, mode, url, events_json, status, secret_sealed,
      secret_prefix, created_at, updated_at) values ('e1', 't1', 'live', ${rx.url('/old')}, '["pdf.created"]',
      'enabled', ${sealed}, 'whsec_old', ${T}, ${T})`.execute(old);
    await sql`insert into webhook_events (id, team_id, type, envelope_json, created_at)
      values ('evt_1', 't1', 'pdf.created', '{"id":"evt_1"}', ${T})`.execute(old);
    const delivery = (id: string, status: string, attempts: number, single: number) =>
      sql`insert into webhook_deliveries (id, endpoint_id, team_id, event_id, event_type, status, attempts,
        test_event, single_attempt, created_at, next_attempt_at, lease_owner, lease_until)
        values (${id}, 'e1', 't1', 'evt_1', 'pdf.created', ${status}, ${attempts}, 0, ${single}, ${T},
        ${status === 'pending' ? DUE : null}, 'old-dispatcher', ${T})`.execute(old);
    await delivery('d-scheduled', 'pending', 2, 0);
    await delivery('d-retry', 'pending', 3, 1);
    await delivery('d-done', 'succeeded', 1, 0);
    await sql`insert into jobs (id, type, team_id, test, payload_json, status, attempts, run_at, created_at,
      updated_at) values ('j-render', 'render', 't1', 0, '{}', 'queued', 0, ${T}, ${T}, ${T})`.execute(old);
    await old.destroy();
    db = await openDatabase(dataDir);
  });
  after(async () => {
    await db.destroy();
    await rx.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives each waiting delivery a queued job at its place in the schedule, and keeps old jobs', async () => {
    const jobs = await db.selectFrom('jobs').selectAll().orderBy('attempts').execute();
    const render = jobs.find((j) => j.id === 'j-render');
    assert.equal(render?.kind, 'render');
    const deliveries = await db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
    const byId = Object.fromEntries(deliveries.map((d) => [d.id, d]));
    assert.equal(byId['d-done']?.job_id, null, 'finished deliveries need no job');
    const scheduled = jobs.find((j) => j.id === byId['d-scheduled']?.job_id);
    const retry = jobs.find((j) => j.id === byId['d-retry']?.job_id);
    assert.deepEqual(
      [scheduled, retry].map((j) => [
        j?.kind,
        j?.status,
        j?.attempts,
        j?.max_attempts,
        j?.run_at,
        j?.concurrency_key,
      ]),
      [
        ['webhook_delivery', 'queued', 2, null, DUE, 'webhook_endpoint:e1'],
        ['webhook_delivery', 'queued', 0, 1, DUE, 'webhook_endpoint:e1'],
      ],
    );
    assert.equal('lease_owner' in (deliveries[0] ?? {}), false, 'the dispatcher lease columns are gone');
  });

  it('the workers then send them', async () => {
    const clock = new ManualClock(Date.parse(DUE));
    const registry = new JobRegistry();
    const webhookJobs = createWebhookJobs({
      db,
      box: createSecretBox(loadServerSecret(dataDir)),
      allowPrivate: true,
      timeoutMs: 5_000,
      email: { send: async () => ({ ok: true, transport: 'log' }), close: () => {} },
      log: { warn: () => {} },
    });
    for (const job of webhookJobs.jobs) registry.register(job.kind, job.handler, job.options);
    const workers = startWorkers({
      db,
      clock,
      registry,
      pools: processPools({ jobs: webhookJobs.jobs, heavyWorkers: 0 }),
      pollMs: 60_000,
    });
    workers.wake();
    await workers.idle();
    await workers.stop();
    await webhookJobs.close();
    assert.equal(rx.received.filter((r) => r.path === '/old').length, 2);
    const log = await db
      .selectFrom('webhook_deliveries')
      .select(['id', 'status', 'attempts'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      log.map((d) => [d.id, d.status, d.attempts]),
      [
        ['d-done', 'succeeded', 1],
        ['d-retry', 'succeeded', 4],
        ['d-scheduled', 'succeeded', 3],
      ],
    );
  });
});
