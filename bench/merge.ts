/**
 * What merging costs (docs/pdf-output.md "Merging", target: merging a 2-page PDF onto the invoice ≤ 1.2× the
 * plain invoice), in ONE run on the render engine in this process and its own Chromium: the plain invoice
 * against the invoice with a 2-page PDF appended — the upload checked by qpdf beside the render
 * (finishing/merge-sources.ts, as production does), and the merge step (finishing/pipeline.ts) — in alternating
 * rounds so the machine's load reaches both alike. Latency is the wall time per document; CPU is this
 * process tree's (Node + Chromium + qpdf).
 *
 *   node --import tsx bench/merge.ts        (QUIRE_BENCH_N rounds, default 20)
 *
 * `npm run bench` runs it too (section `merge`).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config/config.js';
import { type FinishingOptions, planFinishing, resolveFinishing } from '../src/finishing/index.js';
import { Renderer, resolvePageOptions } from '../src/render/index.js';
import { treeCpuMs } from './proc.js';

export interface MergeFigures {
  plain: { p50: number; cpuMsPerDoc: number };
  merged: { p50: number; cpuMsPerDoc: number; steps: Record<string, number> };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

const TWO_PAGES =
  '<h1>Terms and conditions</h1><p>1. Scope.</p><h1 style="break-before:page">Privacy</h1><p>2. Data.</p>';

export async function mergeCost(invoiceHtml: string, rounds: number): Promise<MergeFigures> {
  const renderer = await Renderer.start(loadConfig({}));
  const page = resolvePageOptions({});
  try {
    const terms = (await renderer.render({ html: TWO_PAGES, page, watermark: false })).pdf;
    const options: FinishingOptions = { append: [{ pdf_base64: terms.toString('base64') }] };
    const noStoredDocuments = { find: async () => null };
    const once = async (merging: boolean, onStep?: (step: string, ms: number) => void) => {
      const plan = planFinishing(merging ? options : {});
      // As production does: sources looked up first, qpdf's checks beside the render.
      const finishing = await resolveFinishing(plan, {
        teamId: 'bench',
        test: false,
        watermark: false,
        now: new Date(),
        storedPdfs: noStoredDocuments,
        signingKeys: { signingKey: () => Promise.reject(new Error('the merge bench does not sign')) },
      });
      const rendered = await finishing.alongside(() =>
        renderer.render({ html: invoiceHtml, page, watermark: false }),
      );
      return finishing.finish(rendered.pdf, { createdAt: new Date(), ...(onStep ? { onStep } : {}) });
    };
    for (const merging of [false, true, false, true]) await once(merging); // warm-up
    const times = { plain: [] as number[], merged: [] as number[] };
    const cpu = { plain: 0, merged: 0 };
    const steps = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const name of ['plain', 'merged'] as const) {
        const c0 = treeCpuMs(process.pid);
        const t0 = performance.now();
        await once(name === 'merged', (step, ms) => steps.set(step, [...(steps.get(step) ?? []), ms]));
        times[name].push(performance.now() - t0);
        cpu[name] += treeCpuMs(process.pid) - c0;
      }
    }
    return {
      plain: { p50: median(times.plain), cpuMsPerDoc: cpu.plain / rounds },
      merged: {
        p50: median(times.merged),
        cpuMsPerDoc: cpu.merged / rounds,
        steps: Object.fromEntries([...steps].map(([step, ms]) => [step, median(ms)])),
      },
    };
  } finally {
    await renderer.close();
  }
}

export function mergeReport(figures: MergeFigures): string[] {
  const { plain, merged } = figures;
  return [
    '### Merging a 2-page PDF onto the invoice (render engine + qpdf, alternating rounds)',
    '',
    '| Variant | p50 ms (× plain) | CPU ms |',
    '|---|---|---|',
    `| plain invoice | ${plain.p50.toFixed(0)} (1.00×) | ${plain.cpuMsPerDoc.toFixed(0)} |`,
    `| + append 2-page PDF | ${merged.p50.toFixed(0)} (${(merged.p50 / plain.p50).toFixed(2)}×) | ${merged.cpuMsPerDoc.toFixed(0)} |`,
    '',
    `Merge steps, median ms: ${Object.entries(merged.steps)
      .map(([step, ms]) => `${step} ${ms.toFixed(1)}`)
      .join(', ')}`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const invoice = readFileSync(new URL('./fixtures/invoice.html', import.meta.url), 'utf8');
  const figures = await mergeCost(invoice, Number(process.env.QUIRE_BENCH_N ?? 20));
  for (const line of mergeReport(figures)) console.log(line);
  console.log(JSON.stringify(figures));
}
