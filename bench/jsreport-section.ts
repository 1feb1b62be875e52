/**
 * The `jsreport` section of `npm run bench`: jsreport 4, Quire and raw playwright-core on the same
 * Chromium, fixtures and machine in one run. Start to first PDF (fresh processes), p50/p95 latency and CPU per
 * document (each contender's whole process tree) at c=1, throughput at c=1/2/4 in alternating rounds, RSS.
 */
import { execFileSync } from 'node:child_process';
import { loadConfig } from '../src/config/config.js';
import { postPdf, RawChromium, startQuire } from './contenders.js';
import { startJsreport } from './jsreport.js';
import { alternatingThroughput, type LatencyResult, latency } from './measure.js';
import { processTree, treeCpuMs, treePssMb, treeRssMb } from './proc.js';

export interface JsreportSectionOptions {
  root: string;
  fixtures: string;
  quick: boolean;
  invoiceLiquid: string;
  invoiceHtml: string;
  report: string;
  invoiceData: Record<string, unknown>;
  log(line?: string): void;
}

const f = (n: number, digits = 0) => n.toFixed(digits);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** The text a reader sees, whitespace folded: both contenders must print the same invoice. */
function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf })
    .toString()
    .replace(/\s+/g, ' ')
    .trim();
}

export async function versusJsreport(options: JsreportSectionOptions): Promise<Record<string, unknown>> {
  const { log, quick, root, fixtures, invoiceData } = options;
  const chromiumPath = loadConfig({}).chromiumPath;
  const results: Record<string, unknown> = {};
  log();
  log('## Quire vs jsreport 4 vs raw Chromium (same Chromium, fixtures and run)');
  log();
  const trusted = process.env.QUIRE_BENCH_JSREPORT_TRUSTED === '1';
  results.jsreportTrustUserCode = trusted;
  log(
    `jsreport ${trusted ? 'with trustUserCode: true (helpers outside its sandbox; QUIRE_BENCH_JSREPORT_TRUSTED=1)' : 'with its default sandbox for template helpers (trustUserCode: false; QUIRE_BENCH_JSREPORT_TRUSTED=1 lifts it)'}.`,
  );
  log();
  results.start = await startToFirstPdf(options, chromiumPath, quick ? 1 : 3);

  const jsreport = await startJsreport({ root, chromiumPath, fixtures });
  const quire = await startQuire(root);
  const raw = await RawChromium.start(chromiumPath, 4);
  try {
    const jsInvoice = () => jsreport.render('invoice', invoiceData);
    const quireInvoice = () => postPdf(quire, { html: options.invoiceLiquid, data: invoiceData });
    const sameText = pdfText(await jsInvoice()) === pdfText(await quireInvoice());
    results.sameInvoiceText = sameText;
    log(`Same invoice text in jsreport's and Quire's PDF (pdftotext): ${sameText ? 'yes' : 'NO'}.`);
    log();

    const cpu = {
      raw: () => treeCpuMs(process.pid),
      quire: () => treeCpuMs(quire.child.pid ?? 0),
      jsreport: () => treeCpuMs(jsreport.child.pid ?? 0),
    };
    log(
      '| Document (c=1) | raw p50 | Quire p50 | jsreport p50 | Quire / jsreport p50 | Quire / raw p50 | raw p95 | Quire p95 | jsreport p95 | CPU ms/doc raw · Quire · jsreport |',
    );
    log('|---|---|---|---|---|---|---|---|---|---|');
    const docs: Array<
      [string, () => Promise<unknown>, () => Promise<unknown>, () => Promise<unknown>, number]
    > = [
      ['invoice', () => raw.render(options.invoiceHtml), quireInvoice, jsInvoice, quick ? 8 : 40],
      [
        'report (10 p)',
        () => raw.render(options.report),
        () => postPdf(quire, { html: options.report }),
        () => jsreport.render('report'),
        quick ? 3 : 10,
      ],
    ];
    for (const [name, rawOnce, quireOnce, jsOnce, n] of docs) {
      const a = await latency(rawOnce, n, cpu.raw);
      const b = await latency(quireOnce, n, cpu.quire);
      const c = await latency(jsOnce, n, cpu.jsreport);
      results[name] = { raw: a, quire: b, jsreport: c };
      log(latencyRow(name, a, b, c));
    }
    log();
    log(
      '| Invoice throughput | raw docs/s | Quire docs/s | jsreport docs/s | Quire / jsreport | Quire / raw |',
    );
    log('|---|---|---|---|---|---|');
    for (const c of [1, 2, 4]) {
      const [a = 0, b = 0, j = 0] = await alternatingThroughput(
        [() => raw.render(options.invoiceHtml), quireInvoice, jsInvoice],
        quick ? 4 : 12,
        quick ? 2 : 4,
        c,
      );
      results[`throughput c=${c}`] = { raw: a, quire: b, jsreport: j };
      log(`| c=${c} | ${f(a, 1)} | ${f(b, 1)} | ${f(j, 1)} | ${ratio(b, j)} | ${ratio(b, a)} |`);
    }
    const memory = (pid: number) => ({
      rssMb: treeRssMb(pid),
      pssMb: treePssMb(pid),
      processes: processTree(pid).length,
    });
    const mem = { quire: memory(quire.child.pid ?? 0), jsreport: memory(jsreport.child.pid ?? 0) };
    results.memory = mem;
    log();
    log(
      `Memory after these renders, whole process trees (Node + Chromium): Quire PSS ${f(mem.quire.pssMb)} MB (RSS summed ${f(mem.quire.rssMb)} MB, ${mem.quire.processes} processes), jsreport PSS ${f(mem.jsreport.pssMb)} MB (RSS summed ${f(mem.jsreport.rssMb)} MB, ${mem.jsreport.processes} processes). PSS counts each shared page once; summed RSS counts it in every process. Raw Chromium shares the bench process and is not listed.`,
    );
    log();
  } finally {
    await raw.close();
    await quire.close();
    await jsreport.close();
  }
  return results;
}

function latencyRow(name: string, a: LatencyResult, b: LatencyResult, c: LatencyResult): string {
  return `| ${name} | ${f(a.p50)} | ${f(b.p50)} | ${f(c.p50)} | ${ratio(b.p50, c.p50)} | ${ratio(b.p50, a.p50)} | ${f(a.p95)} | ${f(b.p95)} | ${f(c.p95)} | ${f(a.cpuMsPerDoc)} · ${f(b.cpuMsPerDoc)} · ${f(c.cpuMsPerDoc)} |`;
}

/** Spawn → first invoice PDF of fresh jsreport and Quire processes, alternating; the median of `runs`. */
async function startToFirstPdf(
  options: JsreportSectionOptions,
  chromiumPath: string,
  runs: number,
): Promise<Record<string, unknown>> {
  const times = { quire: [] as number[], jsreport: [] as number[] };
  for (let i = 0; i < runs; i++) {
    const jsreport = await startJsreport({ root: options.root, chromiumPath, fixtures: options.fixtures });
    await jsreport.render('invoice', options.invoiceData);
    times.jsreport.push(performance.now() - jsreport.spawnedAt);
    await jsreport.close();
    const quire = await startQuire(options.root);
    await postPdf(quire, { html: options.invoiceLiquid, data: options.invoiceData });
    times.quire.push(performance.now() - quire.spawnedAt);
    await quire.close();
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
  const result = { quire: median(times.quire), jsreport: median(times.jsreport), runs: times };
  options.log(
    `Start to first invoice PDF (spawn → PDF, fresh data directory, median of ${runs}): Quire ${f(result.quire)} ms, jsreport ${f(result.jsreport)} ms (Quire / jsreport ${ratio(result.quire, result.jsreport)}); runs: Quire ${times.quire.map((t) => f(t)).join(', ')}, jsreport ${times.jsreport.map((t) => f(t)).join(', ')} ms.`,
  );
  options.log();
  return result;
}
