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
import { CHROMIUM_ARGS } from '../../../src/render/browser-supervisor.js';
import { Renderer, resolvePageOptions } from '../../../src/render/index.js';

const N = Number(process.argv[2] ?? 30);
const html = readFileSync(path.resolve('../shared/bench/fixtures/invoice.html'), 'utf8');
const config = loadConfig({}, { dataDir: mkdtempSync(path.join(os.tmpdir(), 'quire-bench-')) });

async function series(label: string, once: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await once(); // warm-up, not measured
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)] ?? Number.NaN;
  console.log(
    `${label}: p50 ${p50.toFixed(1)} ms, min ${times[0]?.toFixed(1)}, max ${times.at(-1)?.toFixed(1)}`,
  );
  return p50;
}

async function raw(): Promise<number> {
  const browser = await chromium.launch({ executablePath: config.chromiumPath, args: [...CHROMIUM_ARGS] });
  const page = await (await browser.newContext()).newPage();
  const p50 = await series('raw playwright', async () => {
    await page.setContent(html);
    await page.pdf({ format: 'A4', margin: { top: '20mm', right: '20mm', bottom: '20mm', left: '20mm' } });
  });
  await browser.close();
  return p50;
}

async function quire(): Promise<number> {
  const renderer = await Renderer.start(config);
  const job = { html, page: resolvePageOptions({}), watermark: false };
  const p50 = await series('Quire Renderer', () => renderer.render(job));
  await renderer.close();
  return p50;
}

const a = await raw();
const b = await quire();
const a2 = await raw();
console.log(`ratio Quire / raw: ${(b / ((a + a2) / 2)).toFixed(2)} (raw measured before and after)`);
