/**
 * The scale-out section of `npm run bench`, on PostgreSQL (QUIRE_BENCH_DATABASE_URL, default
 * postgres://127.0.0.1:5432/test: a fresh database is created on that server and dropped afterwards):
 *
 * 1. async invoice throughput: one `quire serve` (no render workers) and 1, then 2, `quire worker` processes
 *    (2 render workers each), N async POST /v1/pdf → every document succeeded, against raw Chromium at the
 *    same concurrency (2, then 4) in the same run;
 * 2. queue claim latency on PostgreSQL with 1,000 jobs queued (claimJob + finishJob, one claimer), and
 *    SQLite for comparison;
 * 3. per-request overhead of PostgreSQL against SQLite: POST /v1/pdf of a tiny document on two otherwise equal
 *    servers, alternating;
 * 4. the render-slot lease round trips per render (acquire + release on PostgreSQL vs in memory).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/config/config.js';
import { claimJob, enqueueJobs, finishJob } from '../src/jobs/queue.js';
import { systemClock } from '../src/shared/clock.js';
import { MemoryTeamSlots, type TeamSlots } from '../src/shared/team-slots.js';
import { type Db, openDatabase } from '../src/storage/db.js';
import { DatabaseTeamSlots } from '../src/storage/render-leases.js';
import { postPdf, type QuireProcess, RawChromium } from './contenders.js';
import { latency, throughput } from './measure.js';

export interface ScaleBenchOptions {
  root: string;
  quick: boolean;
  invoiceLiquid: string;
  invoiceHtml: string;
  invoiceData: Record<string, unknown>;
  log(line?: string): void;
}

export const BASE_URL = process.env.QUIRE_BENCH_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test';
/** Render workers per `quire worker` process (QUIRE_WORKERS). */
const WORKERS_PER_PROCESS = 2;
const QUEUED_JOBS = 1_000;

const f = (n: number, digits = 0) => n.toFixed(digits);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

export async function runScaleBenches(options: ScaleBenchOptions): Promise<Record<string, unknown>> {
  const { log, quick } = options;
  const results: Record<string, unknown> = {};
  if (!(await reachable(BASE_URL))) {
    log();
    log(`## Scale-out: skipped (PostgreSQL at ${BASE_URL} does not answer)`);
    return { skipped: true };
  }
  log();
  log('## Scale-out (PostgreSQL)');
  results.throughput = await asyncThroughput(options);
  results.claims = await claimLatency(log, quick);
  results.overhead = await requestOverhead(options);
  results.leases = await leaseCost(log, quick);
  return results;
}

/** 1. Async invoices through 1 and 2 worker processes, against raw Chromium at the same concurrency. */
async function asyncThroughput(options: ScaleBenchOptions): Promise<Record<string, unknown>> {
  const { log, quick } = options;
  const n = quick ? 16 : 80;
  const database = await createDatabase();
  const cluster = newCluster(options.root, database.url);
  const results: Record<string, unknown> = {};
  try {
    const api = await cluster.serve();
    const db = await openDatabase(cluster.dataDir, database.url);
    try {
      const body = { html: options.invoiceLiquid, data: options.invoiceData, async: true };
      const runAsync = async (count: number) => {
        const t0 = performance.now();
        const ids: string[] = [];
        await throughput(
          async () => {
            ids.push(await postAsync(api, body));
          },
          count,
          8,
        );
        await untilSucceeded(db, ids);
        return count / ((performance.now() - t0) / 1000);
      };
      const raw = await RawChromium.start(loadConfig({}).chromiumPath, 4);
      try {
        log();
        log(
          `Async invoices (${n}, Liquid template data) through \`quire worker\` processes (${WORKERS_PER_PROCESS} render workers each), from the first POST to the last document succeeded, against raw Chromium at the same concurrency:`,
        );
        log();
        log('| Async invoice throughput | raw docs/s | Quire docs/s | Quire / raw |');
        log('|---|---|---|---|');
        let oneWorker = 0;
        for (const processes of [1, 2]) {
          await cluster.workers(processes);
          await runAsync(4); // warm-up: the new workers' Chromium and template cache
          const quire = await runAsync(n);
          const concurrency = processes * WORKERS_PER_PROCESS;
          const rawRate = await throughput(() => raw.render(options.invoiceHtml), n, concurrency);
          if (processes === 1) oneWorker = quire;
          results[`workers=${processes}`] = { quire, raw: rawRate, concurrency };
          log(
            `| ${processes} worker process${processes > 1 ? 'es' : ''} (c=${concurrency}) | ${f(rawRate, 1)} | ${f(quire, 1)} | ${ratio(quire, rawRate)} |`,
          );
        }
        const two = (results['workers=2'] as { quire: number }).quire;
        log();
        log(`2 worker processes / 1: ${ratio(two, oneWorker)} (2 CPU cores, shared with other work).`);
      } finally {
        await raw.close();
      }
    } finally {
      await db.destroy();
    }
  } finally {
    await cluster.close();
    await database.drop();
  }
  return results;
}

/** 2. claimJob + finishJob, one claimer, from 1,000 queued jobs down to none: PostgreSQL, then SQLite. */
async function claimLatency(log: ScaleBenchOptions['log'], quick: boolean): Promise<Record<string, unknown>> {
  const jobs = quick ? 200 : QUEUED_JOBS;
  const database = await createDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-claims-'));
  const results: Record<string, unknown> = {};
  try {
    for (const [name, url] of [
      ['PostgreSQL', database.url],
      ['SQLite', null],
    ] as const) {
      const db = await openDatabase(dir, url);
      try {
        results[name] = await claimAll(db, jobs);
      } finally {
        await db.destroy();
      }
    }
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  const pgR = results.PostgreSQL as Claims;
  const sq = results.SQLite as Claims;
  log();
  log(`| Queue claim (${jobs} queued, claim + finish, one claimer) | p50 ms | p95 ms | max ms |`);
  log('|---|---|---|---|');
  log(`| PostgreSQL | ${f(pgR.p50, 2)} | ${f(pgR.p95, 2)} | ${f(pgR.max, 2)} |`);
  log(`| SQLite | ${f(sq.p50, 2)} | ${f(sq.p95, 2)} | ${f(sq.max, 2)} |`);
  return results;
}

interface Claims {
  p50: number;
  p95: number;
  max: number;
  /** The claim's share (claimJob alone) at p50. */
  claimP50: number;
}

async function claimAll(db: Db, jobs: number): Promise<Claims> {
  const inputs = Array.from({ length: jobs }, (_, i) => ({
    kind: 'bench',
    teamId: null,
    test: false,
    payload: { i },
  }));
  await db.transaction().execute((trx) => enqueueJobs(trx, systemClock, inputs));
  const total: number[] = [];
  const claims: number[] = [];
  for (;;) {
    const t0 = performance.now();
    const job = await claimJob(db, systemClock, { owner: 'bench', leaseMs: 60_000, kinds: ['bench'] });
    const t1 = performance.now();
    if (!job) break;
    await finishJob(db, systemClock, job, { status: 'succeeded', error: null });
    total.push(performance.now() - t0);
    claims.push(t1 - t0);
  }
  if (total.length !== jobs) throw new Error(`claimed ${total.length} of ${jobs} jobs`);
  return {
    p50: percentile(total, 0.5),
    p95: percentile(total, 0.95),
    max: percentile(total, 1),
    claimP50: percentile(claims, 0.5),
  };
}

/** 3. The same tiny POST /v1/pdf on a SQLite server and a PostgreSQL server, alternating in rounds. */
async function requestOverhead(options: ScaleBenchOptions): Promise<Record<string, unknown>> {
  const { log, quick } = options;
  const database = await createDatabase();
  const onPg = newCluster(options.root, database.url);
  const onSqlite = newCluster(options.root, null);
  try {
    // Renders in the API process (QUIRE_WORKERS matters only for background work): a direct request.
    const [pgApi, sqliteApi] = [await onPg.serve(), await onSqlite.serve()];
    const tiny = { html: '<p>x</p>' };
    const rounds = quick ? 2 : 4;
    const per = quick ? 10 : 25;
    const times = { pg: [] as number[], sqlite: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['pg', 'sqlite'] as const) : (['sqlite', 'pg'] as const);
      for (const which of order) {
        const server = which === 'pg' ? pgApi : sqliteApi;
        const r = await latency(
          () => postPdf(server, tiny),
          per,
          () => 0,
        );
        times[which].push(r.p50);
      }
    }
    const pgP50 = median(times.pg);
    const sqliteP50 = median(times.sqlite);
    log();
    log(
      `| POST /v1/pdf, tiny document (median of ${rounds} rounds × ${per}) | SQLite p50 ms | PostgreSQL p50 ms | difference |`,
    );
    log('|---|---|---|---|');
    log(
      `| direct render | ${f(sqliteP50, 1)} | ${f(pgP50, 1)} | ${f(pgP50 - sqliteP50, 1)} ms (${ratio(pgP50, sqliteP50)}) |`,
    );
    return { pgP50, sqliteP50 };
  } finally {
    await onPg.close();
    await onSqlite.close();
    await database.drop();
  }
}

/** 4. Acquire + release of one render slot, as every render does: PostgreSQL leases vs the memory slots. */
async function leaseCost(log: ScaleBenchOptions['log'], quick: boolean): Promise<Record<string, unknown>> {
  const n = quick ? 100 : 500;
  const database = await createDatabase();
  const db = await openDatabase('/nonexistent', database.url);
  const shared = new DatabaseTeamSlots(db);
  const measure = async (slots: TeamSlots) => {
    const times: number[] = [];
    for (let i = 0; i < n + 20; i++) {
      const t0 = performance.now();
      const lease = await slots.tryAcquire('bench-team', 4, 'direct');
      if (!lease) throw new Error('no slot');
      await lease.release();
      if (i >= 20) times.push(performance.now() - t0);
    }
    return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
  };
  try {
    // One round trip to the database, the unit the lease's cost is made of.
    const trips: number[] = [];
    for (let i = 0; i < n + 20; i++) {
      const t0 = performance.now();
      await sql`select 1`.execute(db);
      if (i >= 20) trips.push(performance.now() - t0);
    }
    const roundTrip = { p50: percentile(trips, 0.5), p95: percentile(trips, 0.95) };
    const onPg = await measure(shared);
    const inMemory = await measure(new MemoryTeamSlots());
    log();
    log(`| Render slot per render (acquire + release, ${n}×) | p50 ms | p95 ms |`);
    log('|---|---|---|');
    log(`| PostgreSQL lease (advisory lock + insert, delete) | ${f(onPg.p50, 2)} | ${f(onPg.p95, 2)} |`);
    log(`| in memory (SQLite installs) | ${f(inMemory.p50, 3)} | ${f(inMemory.p95, 3)} |`);
    log(
      `| one PostgreSQL round trip (\`select 1\`), for scale | ${f(roundTrip.p50, 2)} | ${f(roundTrip.p95, 2)} |`,
    );
    return { postgres: onPg, memory: inMemory, roundTrip };
  } finally {
    await shared.close();
    await db.destroy();
    await database.drop();
  }
}

interface Cluster {
  dataDir: string;
  serve(): Promise<QuireProcess>;
  /** Runs exactly `count` worker processes (starting or stopping some). */
  workers(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Quire processes on one database (PostgreSQL at `url`, or SQLite in the data directory) and one data directory. */
function newCluster(root: string, url: string | null): Cluster {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-bench-scale-'));
  const plansFile = path.join(dataDir, 'plans.json');
  writeFileSync(
    plansFile,
    JSON.stringify({
      scale: {
        rate_limit_per_min: 10_000_000,
        docs_per_period: 10_000_000,
        // Room for 2 worker processes × 2 render workers in background work (which leaves one slot free).
        render_concurrency: 2 * WORKERS_PER_PROCESS + 1,
        open_jobs: 100_000,
      },
    }),
  );
  const env = {
    ...process.env,
    QUIRE_DATA_DIR: dataDir,
    ...(url ? { QUIRE_DATABASE_URL: url } : {}),
    QUIRE_PORT: '0',
    QUIRE_LOG_LEVEL: 'warn',
    QUIRE_PLANS_FILE: plansFile,
    QUIRE_IP_RATE_LIMIT: '100000000',
    QUIRE_DEFAULT_PLAN: 'scale',
    QUIRE_RENDER_POOL_SIZE: String(WORKERS_PER_PROCESS),
  };
  const children: ChildProcess[] = [];
  const workers: ChildProcess[] = [];
  const spawnQuire = (args: string[], extra: Record<string, string>, ready: RegExp) => {
    const child = spawn(process.execPath, [path.join(root, 'bin', 'quire.mjs'), ...args], {
      env: { ...env, ...extra },
      // The serving line and the first run's keys are announced on stderr (README: Logs); the JSON log is not needed.
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    return new Promise<{ child: ChildProcess; out: string }>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`quire ${args[0]} did not start:\n${out}`)), 120_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (ready.test(out) && (args[0] !== 'serve' || /Live key: /.test(out))) {
          clearTimeout(timer);
          resolve({ child, out });
        }
      });
    });
  };
  const stop = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return {
    dataDir,
    async serve() {
      const { child, out } = await spawnQuire(
        ['serve'],
        { QUIRE_WORKERS: '0' },
        /serving (http:\/\/\S+)\/v1/,
      );
      const base = /serving (http:\/\/\S+)\/v1/.exec(out)?.[1] as string;
      const liveKey = /Live key: (qk_live_\w+)/.exec(out)?.[1] as string;
      const testKey = /Test key: (qk_test_\w+)/.exec(out)?.[1] as string;
      return {
        child,
        base,
        liveKey,
        testKey,
        dataDir,
        spawnedAt: 0,
        startToListenMs: 0,
        close: () => stop(child),
      };
    },
    async workers(count) {
      while (workers.length > count) await stop(workers.pop() as ChildProcess);
      while (workers.length < count) {
        const { child } = await spawnQuire(
          ['worker'],
          { QUIRE_WORKERS: String(WORKERS_PER_PROCESS) },
          /Quire worker running/,
        );
        workers.push(child);
      }
    },
    async close() {
      await Promise.all(children.map(stop));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function postAsync(q: QuireProcess, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${q.base}/v1/pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${q.liveKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 202)
    throw new Error(`POST /v1/pdf async → ${response.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { id: string }).id;
}

/** Polls the database every 50 ms until every document succeeded; throws when one failed. */
async function untilSucceeded(db: Db, ids: string[]): Promise<void> {
  for (;;) {
    const rows = await db.selectFrom('documents').select(['id', 'status']).where('id', 'in', ids).execute();
    const failed = rows.find((r) => r.status === 'failed');
    if (failed) throw new Error(`document ${failed.id} failed`);
    if (rows.length === ids.length && rows.every((r) => r.status === 'succeeded')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function adminUrl(url: string): string {
  const u = new URL(url);
  if (u.username === '') u.username = process.env.PGUSER ?? process.env.USER ?? userInfo().username;
  return u.toString();
}

export async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl(url), connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** A fresh database on the server of BASE_URL, dropped by `drop`. */
export async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `quire_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl(BASE_URL) });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name} template template0`);
  const u = new URL(BASE_URL);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
}

function median(values: number[]): number {
  return percentile(values, 0.5);
}
