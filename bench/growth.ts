/**
 * The `growth` section of `npm run bench`: what a render costs as work grows.
 * 1. POST /v1/pdf (stored: `response: url`, so the storage quota is checked) with 0, 10,000 and 100,000
 *    documents in the team's log, on SQLite and on PostgreSQL (skipped when it does not answer), and the
 *    storage check alone: the running total (migration 0021) against summing the log as before it.
 * 2. Memory of an idle server, after N invoice renders (QUIRE_BENCH_GROWTH_RENDERS, default 10,000; quick
 *    200) and idle again after them.
 * A 1,000-item batch against the same documents as single requests is the `batches` section.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Insertable } from 'kysely';
import { storedBytes } from '../src/documents/repository.js';
import type { DocumentsTable } from '../src/documents/tables.js';
import { type Db, openDatabase } from '../src/storage/db.js';
import { postPdf, type QuireProcess, startQuire } from './contenders.js';
import { latency, throughput } from './measure.js';
import { processRssMb, treeCpuMs, treePssMb, treeRssMb } from './proc.js';
import { BASE_URL, createDatabase, reachable } from './scale.js';

export interface GrowthBenchOptions {
  root: string;
  quick: boolean;
  invoiceLiquid: string;
  invoiceData: Record<string, unknown>;
  log(line?: string): void;
}

const f = (n: number, digits = 0) => n.toFixed(digits);
const SEED_CHUNK = 1000;
const SEED_BYTES = 30_000;
const DAY_MS = 86_400_000;

export async function runGrowthBenches(options: GrowthBenchOptions): Promise<Record<string, unknown>> {
  const { log, quick } = options;
  const steps = quick ? [0, 1_000, 5_000] : [0, 10_000, 100_000];
  const results: Record<string, unknown> = {};
  log();
  log("## Growth: a render's cost as the team's log grows, and memory over many renders");
  log();
  results.sqlite = await logGrowth(options, 'SQLite', null, steps);
  if (await reachable(BASE_URL)) {
    const database = await createDatabase();
    try {
      results.postgres = await logGrowth(options, 'PostgreSQL', database.url, steps);
    } finally {
      await database.drop();
    }
  } else log(`PostgreSQL at ${BASE_URL} does not answer: its rows are skipped.`);
  results.memory = await memoryOverRenders(options);
  return results;
}

async function logGrowth(
  options: GrowthBenchOptions,
  dialect: string,
  url: string | null,
  steps: number[],
): Promise<Record<string, unknown>> {
  const { log, quick } = options;
  // Room for 100,000 seeded files of 30 kB: the quota must not refuse the measured renders.
  const quire = await startQuire(
    options.root,
    { storage_bytes: 10 ** 15 },
    url ? { QUIRE_DATABASE_URL: url } : {},
  );
  const db = await openDatabase(quire.dataDir, url);
  const stored = () =>
    postPdf(quire, { html: options.invoiceLiquid, data: options.invoiceData, response: 'url' });
  const results: Record<string, unknown> = {};
  try {
    await stored();
    const teamId = await teamOf(db);
    log(
      `| ${dialect}: documents in the team's log | POST /v1/pdf (stored) p50 ms | p95 ms | CPU ms/doc | storage check µs (running total) | summing the log µs (before migration 0021) |`,
    );
    log('|---|---|---|---|---|---|');
    let seeded = 0;
    for (const step of steps) {
      seeded += await seed(db, teamId, step - seeded);
      const render = await latency(stored, quick ? 8 : 40, () => treeCpuMs(quire.child.pid ?? 0));
      const check = await microseconds(() => storedBytes(db, teamId, false), quick ? 50 : 200);
      const sum = await microseconds(() => summedBytes(db, teamId), quick ? 10 : 50);
      results[step] = { render, checkUs: check, sumUs: sum };
      log(
        `| ${step.toLocaleString('en')} | ${f(render.p50)} | ${f(render.p95)} | ${f(render.cpuMsPerDoc)} | ${f(check)} | ${f(sum)} |`,
      );
    }
    log();
  } finally {
    await db.destroy();
    await quire.close();
  }
  return results;
}

/** The team the server's live key belongs to: the one that owns the warm-up document. */
async function teamOf(db: Db): Promise<string> {
  const row = await db.selectFrom('documents').select('team_id').executeTakeFirstOrThrow();
  return row.team_id;
}

/** Inserts `count` succeeded, stored live documents for the team, in chunks; the triggers keep the total. */
async function seed(db: Db, teamId: string, count: number): Promise<number> {
  const now = Date.now();
  for (let done = 0; done < count; done += SEED_CHUNK) {
    const rows: Array<Insertable<DocumentsTable>> = [];
    for (let i = done; i < Math.min(count, done + SEED_CHUNK); i++) {
      const id = randomUUID();
      const created = new Date(now - DAY_MS + i).toISOString();
      rows.push({
        id,
        team_id: teamId,
        status: 'succeeded',
        mode: 'fast',
        test: 0,
        template_id: null,
        template_version: null,
        error_code: null,
        pages: 1,
        bytes: SEED_BYTES,
        filename: 'seeded.pdf',
        content_type: 'application/pdf',
        metadata_json: null,
        e_invoice_json: null,
        delivery_json: null,
        batch_id: null,
        blob_key: `seeded/${id}`,
        stored_bytes: SEED_BYTES,
        counted: 0,
        expires_at: new Date(now + 30 * DAY_MS).toISOString(),
        thumbnail_key: null,
        created_at: created,
        updated_at: created,
      });
    }
    await db.insertInto('documents').values(rows).execute();
  }
  return count;
}

/** The storage check as it was before migration 0021: the sum over every document of the team. */
async function summedBytes(db: Db, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('documents')
    .select((eb) => eb.fn.sum<number>('stored_bytes').as('total'))
    .where('team_id', '=', teamId)
    .where('test', '=', 0)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Median µs of `n` sequential calls. */
async function microseconds(once: () => Promise<unknown>, n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await once();
    times.push((performance.now() - t0) * 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

async function memoryOverRenders(options: GrowthBenchOptions): Promise<Record<string, unknown>> {
  const { log, quick } = options;
  const renders = Number(process.env.QUIRE_BENCH_GROWTH_RENDERS ?? (quick ? 200 : 10_000));
  const quire = await startQuire(options.root);
  const pid = quire.child.pid ?? 0;
  const sample = (q: QuireProcess) => ({
    tree: treeRssMb(q.child.pid ?? 0),
    treePss: treePssMb(q.child.pid ?? 0),
    node: processRssMb(pid),
  });
  try {
    await sleep(2_000);
    const idle = sample(quire);
    await throughput(
      () => postPdf(quire, { html: options.invoiceLiquid, data: options.invoiceData }),
      renders,
      2,
    );
    const after = sample(quire);
    await sleep(10_000);
    const idleAfter = sample(quire);
    log('| Memory (SQLite, invoice, c=2) | Quire + Chromium PSS MB | summed RSS MB | Quire (Node) RSS MB |');
    log('|---|---|---|---|');
    const row = (name: string, m: ReturnType<typeof sample>) =>
      log(`| ${name} | ${f(m.treePss)} | ${f(m.tree)} | ${f(m.node)} |`);
    row('idle after start', idle);
    row(`after ${renders.toLocaleString('en')} renders`, after);
    row('idle 10 s later', idleAfter);
    log();
    return { renders, idle, after, idleAfter };
  } finally {
    await quire.close();
  }
}
