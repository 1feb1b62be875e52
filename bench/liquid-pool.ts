/**
 * Per-document cost of running Liquid on the worker pool (target: at most 2 ms more than
 * rendering in the calling thread), for the bench invoice (bench/fixtures/invoice.*).
 *
 *   node --import tsx bench/liquid-pool.ts        (QUIRE_BENCH_N=500 by default)
 *
 * `npm run bench` runs it too (section `liquid`).
 *
 * Reports, per document: wall time in the calling thread vs through the pool (c=1, the stored
 * template cached in the worker), the main thread's own busy time with the pool (event-loop
 * utilisation: what other requests wait for), and the structured clone of the data alone.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { LiquidEngine, LiquidRenderer } from '../src/liquid/index.js';
import { latency } from './measure.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Main-thread busy milliseconds per document while `run` renders n documents. */
async function mainThreadMsPerDoc(run: () => Promise<unknown>, n: number): Promise<number> {
  const before = performance.eventLoopUtilization();
  for (let i = 0; i < n; i++) await run();
  return performance.eventLoopUtilization(before).active / n;
}

function cloneMsPerDoc(data: unknown, n: number): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) structuredClone(data);
  return (performance.now() - t0) / n;
}

export interface LiquidPoolFigures {
  chars: number;
  n: number;
  inThread: { p50: number; p95: number; cpuMsPerDoc: number };
  viaPool: { p50: number; p95: number; cpuMsPerDoc: number };
  /** Extra wall time per document through the pool, p50 (target ≤ 2 ms). */
  overheadMs: number;
  mainThreadMsPerDoc: number;
  cloneMs: number;
}

/** The bench invoice rendered n times in the calling thread, then n times through a one-worker pool. */
export async function liquidPoolOverhead(n: number): Promise<LiquidPoolFigures> {
  const source = fixture('invoice.liquid.html');
  const data = JSON.parse(fixture('invoice.data.json')) as Record<string, unknown>;
  const renderer = new LiquidRenderer();
  const direct = () => Promise.resolve(renderer.render(renderer.getOrParse('invoice@1', source), data));
  const engine = new LiquidEngine({ threads: 1 });
  const pooled = () => engine.renderStored('invoice@1', source, data);
  try {
    await pooled(); // starts the worker outside the measurement
    const inThread = await latency(direct, n, processCpuMs);
    const viaPool = await latency(pooled, n, processCpuMs);
    const mainThreadMs = await mainThreadMsPerDoc(pooled, n);
    return {
      chars: source.length,
      n,
      inThread,
      viaPool,
      overheadMs: viaPool.p50 - inThread.p50,
      mainThreadMsPerDoc: mainThreadMs,
      cloneMs: cloneMsPerDoc(data, n),
    };
  } finally {
    await engine.close();
  }
}

/** The section's Markdown lines (also what running this file prints). */
export function liquidPoolReport(f: LiquidPoolFigures): string[] {
  const ms = (n: number) => n.toFixed(3);
  return [
    `Liquid pool overhead, bench invoice (${f.chars} chars, ${f.n} documents, c=1)`,
    '',
    '| | p50 ms/doc | p95 ms/doc | CPU ms/doc (all threads) |',
    '|---|---|---|---|',
    `| in the calling thread | ${ms(f.inThread.p50)} | ${ms(f.inThread.p95)} | ${ms(f.inThread.cpuMsPerDoc)} |`,
    `| worker pool | ${ms(f.viaPool.p50)} | ${ms(f.viaPool.p95)} | ${ms(f.viaPool.cpuMsPerDoc)} |`,
    '',
    `Extra wall time per document (p50): ${ms(f.overheadMs)} ms (target ≤ 2 ms). Main thread busy per document with the pool: ${ms(f.mainThreadMsPerDoc)} ms; structured clone of the data alone: ${ms(f.cloneMs)} ms.`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await liquidPoolOverhead(Number(process.env.QUIRE_BENCH_N ?? 500));
  for (const line of liquidPoolReport(figures)) console.log(line);
}
