/**
 * Print vs fast latency through the real Renderer (benchmark, not a test; run alone on a quiet machine):
 *   node --import tsx test/integration/print/print-vs-fast.bench.ts [runs]
 * Interleaves fast and print renders of each document and prints p50/p95 per mode and the ratio.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/config.js';
import { fastMode } from '../../../src/render/fast-mode.js';
import { Renderer } from '../../../src/render/index.js';
import { printMode } from '../../../src/render/print/index.js';
import type { ModeStrategy } from '../../../src/render/types.js';
import { fixture, job } from './harness.js';

const RUNS = Number(process.argv[2] ?? 20);
const WARM_UP = 3;
const benchFixture = (name: string) =>
  readFileSync(new URL(`../../../bench/fixtures/${name}`, import.meta.url), 'utf8');
// The 50-page document with one named string: forces the Paged.js path (checks the 30 s limit).
const polyfill50 = benchFixture('doc-50p.html').replace(
  '</style>',
  'h2 { string-set: chapter content(); }</style>',
);

const DOCUMENTS: [string, string][] = [
  ['invoice (native)', benchFixture('invoice.html')],
  ['report 10 p (native)', benchFixture('report-10p.html')],
  ['invoice-running (polyfill)', fixture('invoice-running.html')],
  ['doc 50 p + string-set (polyfill)', polyfill50],
];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(renderer: Renderer, html: string, strategy: ModeStrategy): Promise<[number, number]> {
  const t0 = performance.now();
  const result = await renderer.render(job(html, { mode: strategy.mode }), strategy);
  return [performance.now() - t0, result.pages];
}

const config = loadConfig(
  {},
  { dataDir: mkdtempSync(join(tmpdir(), 'quire-print-bench-')), renderPoolSize: 1 },
);
const renderer = await Renderer.start(config);
try {
  for (const [name, html] of DOCUMENTS) {
    const runs = name.includes('50 p') ? Math.min(RUNS, 5) : RUNS;
    const times: Record<'fast' | 'print', number[]> = { fast: [], print: [] };
    const pages: Record<'fast' | 'print', number> = { fast: 0, print: 0 };
    for (let i = 0; i < WARM_UP + runs; i++) {
      for (const strategy of [fastMode, printMode]) {
        const [ms, count] = await timed(renderer, html, strategy);
        pages[strategy.mode] = count;
        if (i >= WARM_UP) times[strategy.mode].push(ms);
      }
    }
    const [fast, print] = [percentile(times.fast, 50), percentile(times.print, 50)];
    console.log(
      `${name}: fast p50 ${fast.toFixed(0)} ms (p95 ${percentile(times.fast, 95).toFixed(0)}, ${pages.fast} p) | ` +
        `print p50 ${print.toFixed(0)} ms (p95 ${percentile(times.print, 95).toFixed(0)}, ${pages.print} p) | ` +
        `print/fast ${(print / fast).toFixed(2)}× (${runs} runs)`,
    );
  }
} finally {
  await renderer.close();
}
