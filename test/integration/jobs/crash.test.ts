import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createTeam } from '../../../src/accounts/teams.js';
import { enqueueJob } from '../../../src/jobs/queue.js';
import { systemClock } from '../../../src/shared/clock.js';
import { type Db, openDatabase } from '../../../src/storage/db.js';
import { loadServerSecret } from '../../../src/storage/server-secret.js';
import { insertEndpoint } from '../../../src/webhooks/endpoints.js';
import { createSecretBox } from '../../../src/webhooks/secret-box.js';
import { answer, type Receiver, startReceiver } from '../webhooks/receiver.js';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'crash-worker.ts');
const JOBS = 12;

function spawnWorker(dataDir: string, mode: 'hang' | 'run'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', WORKER, dataDir, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 40_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function count(db: Db, query: ReturnType<typeof sql<{ n: number }>>): Promise<number> {
  const result = await query.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

describe('crash safety of the job queue and the outbox', () => {
  let dataDir: string;
  let db: Db;
  let rx: Receiver;
  const children: ChildProcess[] = [];

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'quire-crash-'));
    db = await openDatabase(dataDir);
    rx = await startReceiver();
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await db.destroy();
    await rx.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('kill -9 while jobs are running and deliveries in flight: every job completes once, every event arrives', async () => {
    const team = await createTeam(db, systemClock, { name: 'Crash', plan: 'growth' });
    await insertEndpoint(db, systemClock, createSecretBox(loadServerSecret(dataDir)), {
      teamId: team.id,
      mode: 'live',
      url: rx.url('/crash'),
      events: ['pdf.created'],
      description: null,
    });
    await sql`create table crash_effects (job_id text not null, n integer not null)`.execute(db);
    for (let n = 0; n < JOBS; n += 1) {
      await enqueueJob(db, systemClock, {
        type: 'crash-test',
        teamId: team.id,
        test: false,
        payload: { n, teamId: team.id },
      });
    }
    rx.behave(() => new Promise<void>(() => {})); // receiver hangs: deliveries stay in flight

    const first = spawnWorker(dataDir, 'hang');
    children.push(first);
    await waitFor('8 jobs done, 2 claimed, deliveries in flight', async () => {
      const done = await count(db, sql<{ n: number }>`select count(*) as n from crash_effects`);
      const running = await count(
        db,
        sql<{ n: number }>`select count(*) as n from jobs where status = 'running'`,
      );
      return done === 8 && running === 2 && rx.inFlight >= 2;
    });
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    assert.equal(
      await count(db, sql<{ n: number }>`select count(*) as n from jobs where status = 'running'`),
      2,
    );

    rx.behave(answer(200));
    const second = spawnWorker(dataDir, 'run');
    children.push(second);
    await waitFor('all jobs and deliveries finished', async () => {
      const open = await count(
        db,
        sql<{ n: number }>`select count(*) as n from jobs where status != 'succeeded'`,
      );
      const pending = await count(
        db,
        sql<{ n: number }>`select count(*) as n from webhook_deliveries where status != 'succeeded'`,
      );
      return open === 0 && pending === 0;
    });
    second.kill('SIGKILL');

    const effects = (
      await sql<{
        n: number;
        times: number;
      }>`select n, count(*) as times from crash_effects group by n order by n`.execute(db)
    ).rows;
    assert.deepEqual(
      effects.map((e) => [Number(e.n), Number(e.times)]),
      Array.from({ length: JOBS }, (_, n) => [n, 1]),
      'each job took effect exactly once',
    );
    assert.equal(
      await count(db, sql<{ n: number }>`select count(*) as n from webhook_events`),
      JOBS,
      'one event per job',
    );
    const received = new Set(
      rx.received.filter((r) => r.path === '/crash').map((r) => r.headers['service-event-id']),
    );
    assert.equal(received.size, JOBS, 'every event reached the receiver (duplicates allowed, none missing)');
  });
});
