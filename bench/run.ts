/**
 * `npm run bench`: Quire end to end (POST /v1/pdf over loopback HTTP, live key, binary response) against
 * raw playwright-core `setContent` + `page.pdf()` on warm pages of the same Chromium, in ONE run, on the
 * fixtures in bench/fixtures. Prints a Markdown report (pasted into the README) and writes bench/results/latest.json.
 * Then the batch section (bench/batches.ts) on its own server. QUIRE_BENCH_QUICK=1 shortens every series
 * (for a smoke run); QUIRE_BENCH_ONLY=batches runs only the batch section, QUIRE_BENCH_ONLY=scale only the
 * scale-out section (bench/scale.ts, PostgreSQL; skipped when it does not answer); QUIRE_BENCH_BATCH_ITEMS sets the
 * size of its big batch (default 10,000; quick 100).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/config.js';
import { runBatchBenches } from './batches.js';
import { postPdf, RawChromium, startQuire } from './contenders.js';
import { latency, throughput } from './measure.js';
import { openFds, processTree, treeCpuMs, treeRssMb } from './proc.js';
import { runScaleBenches } from './scale.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.resolve(process.env.QUIRE_BENCH_FIXTURES ?? path.join(root, 'bench', 'fixtures'));
const quick = process.env.QUIRE_BENCH_QUICK === '1';
const only = process.env.QUIRE_BENCH_ONLY;
if (only !== undefined && only !== 'batches' && only !== 'scale')
  throw new Error('QUIRE_BENCH_ONLY: "batches" or "scale"');
const read = (name: string) => readFileSync(path.join(fixtures, name), 'utf8');

const invoiceLiquid = read('invoice.liquid.html');
const invoiceData = JSON.parse(read('invoice.data.json')) as Record<string, unknown>;
const invoiceHtml = read('invoice.html');
const report = read('report-10p.html');
const doc50 = read('doc-50p.html');
const lines: string[] = [];
const log = (line = '') => {
  lines.push(line);
  console.log(line);
};
const f = (n: number, digits = 0) => n.toFixed(digits);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

const results: Record<string, unknown> = { quick };
log(
  `# Quire benchmark (${new Date().toISOString()}${quick ? ', quick' : ''}${only ? `, only ${only}` : ''})`,
);
log();
if (only === undefined) await core();
if (only !== 'scale')
  results.batches = await runBatchBenches({ root, quick, invoiceLiquid, invoiceData, log });
if (only !== 'batches')
  results.scale = await runScaleBenches({ root, quick, invoiceLiquid, invoiceHtml, invoiceData, log });

/** The raw-Chromium comparison, print mode and the soak (issue 17). */
async function core(): Promise<void> {
  const quire = await startQuire(root);
  const firstT0 = performance.now();
  await postPdf(quire, { html: invoiceLiquid, data: invoiceData });
  const firstPdfMs = performance.now() - firstT0;
  const pid = quire.child.pid ?? 0;
  const raw = await RawChromium.start(loadConfig({}).chromiumPath, 4);
  const rawCpu = () => treeCpuMs(process.pid);
  const quireCpu = () => treeCpuMs(pid);

  const quireInvoice = () => postPdf(quire, { html: invoiceLiquid, data: invoiceData });
  Object.assign(results, { startToListenMs: quire.startToListenMs, firstPdfMs });

  log(
    `Server start to listening: ${f(quire.startToListenMs)} ms; then first invoice PDF: ${f(firstPdfMs)} ms (start to first PDF ${f(quire.startToListenMs + firstPdfMs)} ms).`,
  );
  log();
  log(
    '| Document | raw p50 ms | Quire p50 ms | ratio | raw p95 | Quire p95 | raw CPU ms/doc | Quire CPU ms/doc |',
  );
  log('|---|---|---|---|---|---|---|---|');
  const docs: Array<[string, () => Promise<unknown>, () => Promise<unknown>, number]> = [
    ['invoice (1 p, Liquid)', () => raw.render(invoiceHtml), quireInvoice, quick ? 15 : 40],
    ['report (10 p)', () => raw.render(report), () => postPdf(quire, { html: report }), quick ? 4 : 10],
    ['document (50 p)', () => raw.render(doc50), () => postPdf(quire, { html: doc50 }), quick ? 2 : 4],
  ];
  const fast: Record<string, number> = {};
  for (const [name, rawOnce, quireOnce, n] of docs) {
    const a = await latency(rawOnce, n, rawCpu);
    const b = await latency(quireOnce, n, quireCpu);
    fast[name] = b.p50;
    results[name] = { raw: a, quire: b };
    log(
      `| ${name} | ${f(a.p50)} | ${f(b.p50)} | ${ratio(b.p50, a.p50)} | ${f(a.p95)} | ${f(b.p95)} | ${f(a.cpuMsPerDoc)} | ${f(b.cpuMsPerDoc)} |`,
    );
  }

  log();
  log('| Invoice throughput | raw docs/s | Quire docs/s | ratio |');
  log('|---|---|---|---|');
  for (const c of [1, 2, 4]) {
    const n = quick ? 12 : 40;
    const a = await throughput(() => raw.render(invoiceHtml), n, c);
    const b = await throughput(quireInvoice, n, c);
    results[`throughput c=${c}`] = { raw: a, quire: b };
    log(`| c=${c} | ${f(a, 1)} | ${f(b, 1)} | ${ratio(b, a)} |`);
  }
  await raw.close();

  log();
  log('| Print mode (Quire) | fast p50 ms | print p50 ms | print / fast |');
  log('|---|---|---|---|');
  const printInvoice = await latency(
    () => postPdf(quire, { html: invoiceLiquid, data: invoiceData, mode: 'print' }),
    quick ? 10 : 30,
    quireCpu,
  );
  const printReport = await latency(
    () => postPdf(quire, { html: report, mode: 'print' }),
    quick ? 3 : 8,
    quireCpu,
  );
  const running =
    '<style>@page{@top-center{content:element(h)}} .h{position:running(h)}</style><div class="h">Running header</div>';
  const polyfill = await latency(
    () => postPdf(quire, { html: running + invoiceHtml, mode: 'print' }),
    quick ? 5 : 15,
    quireCpu,
  );
  results.print = { invoice: printInvoice, report: printReport, polyfillInvoice: polyfill };
  log(
    `| invoice | ${f(fast['invoice (1 p, Liquid)'] ?? 0)} | ${f(printInvoice.p50)} | ${ratio(printInvoice.p50, fast['invoice (1 p, Liquid)'] ?? 1)} |`,
  );
  log(
    `| report (10 p) | ${f(fast['report (10 p)'] ?? 0)} | ${f(printReport.p50)} | ${ratio(printReport.p50, fast['report (10 p)'] ?? 1)} |`,
  );
  log(
    `| invoice + running header (polyfill) | ${f(fast['invoice (1 p, Liquid)'] ?? 0)} | ${f(polyfill.p50)} | ${ratio(polyfill.p50, fast['invoice (1 p, Liquid)'] ?? 1)} |`,
  );

  log();
  const [first, second] = quick ? [200, 600] : [200, 2000];
  let done = 0;
  const soak = async (until: number) => {
    const remaining = until - done;
    await throughput(quireInvoice, remaining, 2);
    done = until;
    return { rssMb: treeRssMb(pid), fds: openFds(pid), processes: processTree(pid).length };
  };
  const atFirst = await soak(first);
  const atSecond = await soak(second);
  results.soak = { [first]: atFirst, [second]: atSecond };
  log(`| Soak (invoice, c=2) | RSS Quire + Chromium MB | open fds (Node) | processes |`);
  log('|---|---|---|---|');
  log(`| after ${first} renders | ${f(atFirst.rssMb)} | ${atFirst.fds} | ${atFirst.processes} |`);
  log(`| after ${second} renders | ${f(atSecond.rssMb)} | ${atSecond.fds} | ${atSecond.processes} |`);
  log(
    `RSS growth ${((atSecond.rssMb / atFirst.rssMb - 1) * 100).toFixed(1)} % between ${first} and ${second} renders.`,
  );
  await quire.close();
}

mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
writeFileSync(path.join(root, 'bench', 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(path.join(root, 'bench', 'results', 'latest.md'), `${lines.join('\n')}\n`);
