/**
 * What each finishing option costs per document, against the same document without it, in
 * ONE run: the plain invoice and the 10-page report rendered by the render engine in this process and
 * its own Chromium, then finished (src/finishing). Variants run in alternating rounds (plain, tagged,
 * …, plain, tagged, …) so a change in the machine's load reaches them all alike. Latency is render +
 * finishing wall time per document; CPU is this process tree's (Node + Chromium + qpdf).
 *
 *   node --import tsx bench/finishing.ts        (QUIRE_BENCH_N rounds, default 15; QUIRE_BENCH_VARIANTS
 *                                                 picks variants by name, comma-separated)
 *
 * `npm run bench` runs it too (section `finishing`).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { readPkcs12 } from '../src/certificates/pkcs12.js';
import { loadConfig } from '../src/config/config.js';
import { type FinishingOptions, finishPdf, planFinishing, type SigningKey } from '../src/finishing/index.js';
import { htmlLanguage, Renderer, resolvePageOptions } from '../src/render/index.js';
import { makePkcs12 } from '../test/helpers/certificates.js';
import { treeCpuMs } from './proc.js';

/** A chain of two made here (node-forge), as a team would upload it; the key as signing opens it. */
function benchSigningKey(): SigningKey {
  const read = readPkcs12(makePkcs12({ chain: true }), 'secret', new Date());
  return { keyPkcs8: read.keyPkcs8, chain: read.chain, signerName: read.signerName };
}

const CSV = Buffer.from('id,amount\n1,9.50\n2,12.00\n').toString('base64');

/** Each option alone, then everything that can go together (protect and pdf_a cannot). */
export const FINISHING_VARIANTS: Record<string, FinishingOptions> = {
  // Untagged, so that `tagged` (every PDF's default) shows what the tags cost.
  plain: { tagged: false },
  tagged: { tagged: true },
  'tagged + outline': { tagged: true, outline: true },
  pdf_ua: { pdf_ua: true, pdf_metadata: { title: 'Bench', language: 'en' } },
  pdf_metadata: { pdf_metadata: { title: 'Bench', author: 'Quire', keywords: ['bench'], subject: 'Cost' } },
  'pdf_a 3b': { pdf_a: '3b' },
  'pdf_a 2u': { pdf_a: '2u' },
  attachments: {
    attachments: [
      { filename: 'lines.csv', content_base64: CSV, mime_type: 'text/csv', relationship: 'Data' },
    ],
  },
  stamp: { stamp: { text: 'COPY' } },
  sign: { sign: { certificate_id: 'bench' } },
  'pdf_a 3b + sign (visible)': {
    pdf_a: '3b',
    sign: {
      certificate_id: 'bench',
      reason: 'Invoice issued',
      visible: { page: 1, x: '20mm', y: '240mm', width: '80mm', height: '25mm' },
    },
  },
  protect: { protect: { owner_password: 'owner-secret', user_password: 'user' } },
  'all (archival: pdf_a 3u)': {
    pdf_a: '3u',
    pdf_ua: true,
    outline: true,
    pdf_metadata: { title: 'Bench', language: 'en', author: 'Quire' },
    attachments: [
      { filename: 'lines.csv', content_base64: CSV, mime_type: 'text/csv', relationship: 'Data' },
    ],
    stamp: { text: 'COPY' },
  },
  'all (protected)': {
    pdf_ua: true,
    outline: true,
    pdf_metadata: { title: 'Bench', language: 'en', author: 'Quire' },
    attachments: [
      { filename: 'lines.csv', content_base64: CSV, mime_type: 'text/csv', relationship: 'Data' },
    ],
    stamp: { text: 'COPY' },
    protect: { owner_password: 'owner-secret', user_password: 'user' },
  },
};

export interface VariantFigures {
  p50: number;
  cpuMsPerDoc: number;
  bytes: number;
  /** Median ms of each finishing step (pipeline.ts), in the order they ran. */
  steps: Record<string, number>;
}

export type FinishingFigures = Record<string, Record<string, VariantFigures>>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

/**
 * The variants to run: all, or those QUIRE_BENCH_VARIANTS names (comma-separated; `plain` always), so a
 * loaded machine can measure the ones the targets name in minutes.
 */
export function chosenVariants(list = process.env.QUIRE_BENCH_VARIANTS): string[] {
  const all = Object.keys(FINISHING_VARIANTS);
  if (!list) return all;
  const wanted = new Set(['plain', ...list.split(',').map((n) => n.trim())]);
  for (const name of wanted)
    if (!all.includes(name))
      throw new Error(`QUIRE_BENCH_VARIANTS: unknown "${name}" (known: ${all.join(', ')})`);
  return all.filter((n) => wanted.has(n));
}

export async function finishingCost(
  docs: Record<string, string>,
  rounds: number,
  names: string[] = chosenVariants(),
): Promise<FinishingFigures> {
  const renderer = await Renderer.start(loadConfig({}));
  const page = resolvePageOptions({});
  const out: FinishingFigures = {};
  const signingKey = benchSigningKey();
  try {
    for (const [docName, html] of Object.entries(docs)) {
      const once = async (options: FinishingOptions, onStep?: (step: string, ms: number) => void) => {
        const plan = planFinishing(options);
        if (plan.pdf_ua && !plan.metadata?.language && !htmlLanguage(html)) throw new Error('no language');
        const rendered = await renderer.render({
          html,
          page,
          watermark: false,
          tagged: plan.tagged,
          outline: plan.outline,
        });
        return finishPdf(rendered.pdf, plan, {
          createdAt: new Date(),
          ...(plan.sign ? { signingKey } : {}),
          ...(onStep ? { onStep } : {}),
        });
      };
      for (const name of names) await once(FINISHING_VARIANTS[name]!); // warm-up (and pdf-lib loaded)
      const times = new Map<string, number[]>(names.map((n) => [n, []]));
      const cpu = new Map<string, number>(names.map((n) => [n, 0]));
      const bytes = new Map<string, number>();
      const steps = new Map<string, Map<string, number[]>>(names.map((n) => [n, new Map()]));
      for (let round = 0; round < rounds; round++) {
        for (const name of names) {
          const c0 = treeCpuMs(process.pid);
          const t0 = performance.now();
          const stepTimes = steps.get(name)!;
          const pdf = await once(FINISHING_VARIANTS[name]!, (step, ms) =>
            stepTimes.set(step, [...(stepTimes.get(step) ?? []), ms]),
          );
          times.get(name)!.push(performance.now() - t0);
          cpu.set(name, cpu.get(name)! + treeCpuMs(process.pid) - c0);
          bytes.set(name, pdf.length);
        }
      }
      out[docName] = Object.fromEntries(
        names.map((n) => [
          n,
          {
            p50: median(times.get(n)!),
            cpuMsPerDoc: cpu.get(n)! / rounds,
            bytes: bytes.get(n)!,
            steps: Object.fromEntries([...steps.get(n)!].map(([step, ms]) => [step, median(ms)])),
          },
        ]),
      );
    }
  } finally {
    await renderer.close();
  }
  return out;
}

export interface SigningFigures {
  /** CPU of this process per document: finishing with `sign` (pdf-lib parse + field + save + CMS). */
  signCpuMs: number;
  /** The same finishing without `sign` (pdf_metadata: one pdf-lib parse and save): the baseline. */
  baselineCpuMs: number;
  /** signCpuMs − baselineCpuMs: what signing adds (target: ≤ 20 ms per invoice). */
  signingCpuMs: number;
}

/**
 * Signing's CPU per document, without Chromium: the invoice rendered once, then finished `rounds` times
 * with and without `sign`, alternating, measuring this process's CPU (the CMS is made in-process).
 */
export async function signingCost(html: string, rounds: number): Promise<SigningFigures> {
  const renderer = await Renderer.start(loadConfig({}));
  let pdf: Buffer;
  try {
    pdf = (await renderer.render({ html, page: resolvePageOptions({}), watermark: false })).pdf;
  } finally {
    await renderer.close();
  }
  const signingKey = benchSigningKey();
  const signed = planFinishing({ pdf_metadata: { title: 'Bench' }, sign: { certificate_id: 'bench' } });
  const baseline = planFinishing({ pdf_metadata: { title: 'Bench' } });
  const cpuOf = async (plan: typeof signed) => {
    const c0 = process.cpuUsage();
    await finishPdf(pdf, plan, { createdAt: new Date(), signingKey });
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  // Warm-up: modules loaded, JIT compiled.
  for (let i = 0; i < 5; i++) {
    await cpuOf(signed);
    await cpuOf(baseline);
  }
  let signCpu = 0;
  let baseCpu = 0;
  for (let round = 0; round < rounds; round++) {
    signCpu += await cpuOf(signed);
    baseCpu += await cpuOf(baseline);
  }
  const signCpuMs = signCpu / rounds;
  const baselineCpuMs = baseCpu / rounds;
  return { signCpuMs, baselineCpuMs, signingCpuMs: signCpuMs - baselineCpuMs };
}

export function signingReport(f: SigningFigures): string {
  return `Signing the invoice (no Chromium; CPU of this process per document): finishing with sign ${f.signCpuMs.toFixed(1)} ms, without ${f.baselineCpuMs.toFixed(1)} ms — signing adds ${f.signingCpuMs.toFixed(1)} ms (target ≤ 20 ms).`;
}

export function finishingReport(figures: FinishingFigures): string[] {
  const docs = Object.keys(figures);
  const lines = [
    `| Option | ${docs.map((d) => `${d} p50 ms (× plain) | CPU ms | KB`).join(' | ')} |`,
    `|---|${docs.map(() => '---|---|---').join('|')}|`,
  ];
  const names = Object.keys(figures[docs[0] ?? ''] ?? {});
  for (const name of names) {
    const cells = docs.map((d) => {
      const v = figures[d]![name]!;
      const plain = figures[d]!.plain!;
      return `${v.p50.toFixed(0)} (${(v.p50 / plain.p50).toFixed(2)}×) | ${v.cpuMsPerDoc.toFixed(0)} | ${(v.bytes / 1024).toFixed(0)}`;
    });
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  lines.push('', 'Finishing steps, median ms per document (steps under 0.5 ms left out):', '');
  for (const doc of docs) {
    for (const name of names) {
      const steps = Object.entries(figures[doc]![name]!.steps).filter(([, ms]) => ms >= 0.5);
      if (steps.length > 0)
        lines.push(`- ${doc}, ${name}: ${steps.map(([step, ms]) => `${step} ${ms.toFixed(0)}`).join(', ')}`);
    }
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const read = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
  const figures = await finishingCost(
    { invoice: read('invoice.html'), 'report 10 p': read('report-10p.html') },
    Number(process.env.QUIRE_BENCH_N ?? 15),
  );
  for (const line of finishingReport(figures)) console.log(line);
  const signing = await signingCost(read('invoice.html'), Number(process.env.QUIRE_BENCH_N ?? 15) * 4);
  console.log('', signingReport(signing));
  console.log(JSON.stringify({ ...figures, signing }));
}
