/**
 * Not a test: p50 of sequential invoice renders through Renderer vs raw playwright-core
 * (`setContent` + `page.pdf()` on a warm page with its own context) in the same process.
 * Run: node --import tsx test/integration/render/compare-raw.bench.ts [renders=30]
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { loadConfig } from '../../../src/config/config.js';
import { chromiumArgs } from '../../../src/render/browser-supervisor.js';
import { Renderer, resolvePageOptions } from '../../../src/render/index.js';

const N = Number(process.argv[2] ?? 30);
const html = readFileSync(new URL('../../../bench/fixtures/invoice.html', import.meta.url), 'utf8');
const config = loadConfig({}, { dataDir: mkdtempSync(path.join(os.tmpdir(), 'quire-bench-')) });

function p50(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed(once: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await once();
  return performance.now() - t0;
}

// Both run in one process and take turns render by render, so load from elsewhere on the machine
// hits both alike.
const browser = await chromium.launch({ executablePath: config.chromiumPath, args: chromiumArgs(false) });
const page = await (await browser.newContext()).newPage();
const raw = async () => {
  await page.setContent(html);
  await page.pdf({ format: 'A4', margin: { top: '20mm', right: '20mm', bottom: '20mm', left: '20mm' } });
};
const renderer = await Renderer.start(config);
const job = { html, page: resolvePageOptions({}), watermark: false };
const quire = () => renderer.render(job);

for (let i = 0; i < 5; i++) {
  await raw(); // warm-up, not measured
  await quire();
}
const rawTimes: number[] = [];
const quireTimes: number[] = [];
for (let i = 0; i < N; i++) {
  rawTimes.push(await timed(raw));
  quireTimes.push(await timed(quire));
}
console.log(`invoice, ${N} sequential renders each, taking turns`);
console.log(`raw playwright (setContent + page.pdf): p50 ${p50(rawTimes).toFixed(1)} ms`);
console.log(`Quire Renderer.render:                  p50 ${p50(quireTimes).toFixed(1)} ms`);
console.log(`ratio Quire / raw: ${(p50(quireTimes) / p50(rawTimes)).toFixed(2)}`);
await renderer.close();
await browser.close();
