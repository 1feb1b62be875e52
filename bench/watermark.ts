/**
 * The test watermark's cost per document, on the render engine itself: the bench invoice
 * rendered with and without the mark, alternating, in this process and its own Chromium (HTTP would
 * hit the test keys' fixed 20 requests a minute). CPU is this process tree's (Node + Chromium).
 *
 *   node --import tsx bench/watermark.ts [ROOT]   (ROOT: another checkout, to compare with its engine)
 *
 * `npm run bench` runs it too (section `watermark`).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config/config.js';
import type { Renderer } from '../src/render/index.js';
import { type LatencyResult, latency } from './measure.js';
import { treeCpuMs } from './proc.js';

export interface WatermarkFigures {
  plain: LatencyResult;
  marked: LatencyResult;
}

type RenderModule = typeof import('../src/render/index.js');

/** Renders `html` n times with the mark and n times without, on the engine of the checkout at `root`. */
export async function watermarkCost(root: string, html: string, n: number): Promise<WatermarkFigures> {
  const render = (await import(
    pathToFileURL(path.join(root, 'src', 'render', 'index.ts')).href
  )) as RenderModule;
  const renderer: Renderer = await render.Renderer.start(loadConfig({}));
  const page = render.resolvePageOptions({});
  const cpu = () => treeCpuMs(process.pid);
  const once = (watermark: boolean) => () => renderer.render({ html, page, watermark });
  try {
    await latency(once(true), 2, cpu);
    const plain = await latency(once(false), n, cpu);
    const marked = await latency(once(true), n, cpu);
    return { plain, marked };
  } finally {
    await renderer.close();
  }
}

export function watermarkReport(f: WatermarkFigures, label = 'this checkout'): string[] {
  const ms = (n: number) => n.toFixed(0);
  return [
    `| Invoice on the render engine (${label}) | p50 ms | p95 ms | CPU ms/doc (Node + Chromium) |`,
    '|---|---|---|---|',
    `| live (no mark) | ${ms(f.plain.p50)} | ${ms(f.plain.p95)} | ${ms(f.plain.cpuMsPerDoc)} |`,
    `| test (watermark) | ${ms(f.marked.p50)} | ${ms(f.marked.p95)} | ${ms(f.marked.cpuMsPerDoc)} |`,
    '',
    `The mark adds ${ms(f.marked.p50 - f.plain.p50)} ms p50 and ${ms(f.marked.cpuMsPerDoc - f.plain.cpuMsPerDoc)} ms of CPU per document.`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { readFileSync } = await import('node:fs');
  const root = path.resolve(
    process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..'),
  );
  const html = readFileSync(new URL('./fixtures/invoice.html', import.meta.url), 'utf8');
  const figures = await watermarkCost(root, html, Number(process.env.QUIRE_BENCH_N ?? 30));
  for (const line of watermarkReport(figures, root)) console.log(line);
}
