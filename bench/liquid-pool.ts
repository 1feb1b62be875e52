/**
 * Per-document cost of running Liquid on the worker pool (issue 17 target: at most 2 ms more than
 * rendering in the calling thread), for the bench invoice (bench/fixtures/invoice.*).
 *
 *   node --import tsx bench/liquid-pool.ts        (QUIRE_BENCH_N=500 by default)
 *
 * Reports, per document: wall time in the calling thread vs through the pool (c=1, the stored
 * template cached in the worker), the main thread's own busy time with the pool (event-loop
 * utilisation: what other requests wait for), and the structured clone of the data alone.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { LiquidEngine, LiquidRenderer } from '../src/liquid/index.js';
import { latency } from './measure.js';

const N = Number(process.env.QUIRE_BENCH_N ?? 500);
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const source = fixture('invoice.liquid.html');
const data = JSON.parse(fixture('invoice.data.json')) as Record<string, unknown>;

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

function cloneMsPerDoc(n: number): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) structuredClone(data);
  return (performance.now() - t0) / n;
}

const renderer = new LiquidRenderer();
const direct = () => Promise.resolve(renderer.render(renderer.getOrParse('invoice@1', source), data));
const engine = new LiquidEngine({ threads: 1 });
const pooled = () => engine.renderStored('invoice@1', source, data);

await pooled(); // starts the worker outside the measurement
const inThread = await latency(direct, N, processCpuMs);
const viaPool = await latency(pooled, N, processCpuMs);
const mainMs = await mainThreadMsPerDoc(pooled, N);
const cloneMs = cloneMsPerDoc(N);
await engine.close();

const ms = (n: number) => n.toFixed(3);
console.log(`Liquid pool overhead, bench invoice (${source.length} chars, ${N} documents, c=1)\n`);
console.log('| | p50 ms/doc | p95 ms/doc | CPU ms/doc (all threads) |');
console.log('|---|---|---|---|');
console.log(
  `| in the calling thread | ${ms(inThread.p50)} | ${ms(inThread.p95)} | ${ms(inThread.cpuMsPerDoc)} |`,
);
console.log(`| worker pool | ${ms(viaPool.p50)} | ${ms(viaPool.p95)} | ${ms(viaPool.cpuMsPerDoc)} |`);
console.log(`\nExtra wall time per document (p50): ${ms(viaPool.p50 - inThread.p50)} ms (target ≤ 2 ms)`);
console.log(`Main thread busy per document with the pool: ${ms(mainMs)} ms`);
console.log(`Structured clone of the data alone: ${ms(cloneMs)} ms`);
