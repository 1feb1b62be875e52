/**
 * `npm run bench`: Quire end to end (POST /v1/pdf over loopback HTTP, live key, binary response) against
 * raw playwright-core `setContent` + `page.pdf()` on warm pages of the same Chromium, in ONE run, on the
 * fixtures in bench/fixtures. Prints a Markdown report (pasted into the README) and writes bench/results/latest.json.
 * Then the batch section (bench/batches.ts) on its own server. QUIRE_BENCH_QUICK=1 shortens every series
 * (for a smoke run); QUIRE_BENCH_BATCH_ITEMS sets the size of the batch section's big batch (default
 * 10,000; quick 100). QUIRE_BENCH_ONLY picks sections, comma-separated, in this order:
 *   start      spawn → first invoice PDF, three fresh servers (median); QUIRE_BENCH_COMPARE_ROOT=DIR
 *              alternates them with another checkout's servers;
 *   latency    raw vs Quire per document (p50, p95, CPU of each whole process tree), CPU per invoice vs raw;
 *   throughput invoices/s at c=1, 2, 4;
 *   pages      Chromium's CPU for one new pool page, with Quire's launch flags and without the features they
 *              switch off (bench/pages.ts);
 *   watermark  the invoice with and without the test watermark, on the render engine (bench/watermark.ts);
 *   finishing  each finishing option (tagged, pdf_a, protect, …) vs the plain invoice and 10-page report
 *              (bench/finishing.ts);
 *   merge      the invoice with a 2-page PDF appended vs the plain invoice (bench/merge.ts);
 *   einvoice   a Factur-X EN 16931 e-invoice vs the same invoice rendered plainly;
 *   print      print mode vs fast, and the Paged.js polyfill;
 *   soak       RSS, PSS, fds and processes after 1,000 and 10,000 invoices at c=2 (QUIRE_BENCH_SOAK sets the
 *              checkpoints, comma-separated, e.g. 50,100; quick: 200,600);
 *   idle       memory of a fresh server after its first PDF and 10 s idle: PSS and summed RSS of the server and
 *              its Chromium processes, process by process, and the Node heap (a diagnostic report);
 *   liquid     the Liquid worker pool's overhead per document (bench/liquid-pool.ts);
 *   batches    bench/batches.ts;
 *   scale      bench/scale.ts (PostgreSQL; skipped when it does not answer);
 *   jsreport   jsreport 4 (bench/jsreport.ts, installed on first use) beside Quire and raw Chromium: start to
 *              first PDF, p50/p95 and CPU per document at c=1, throughput at c=1/2/4, RSS;
 *   weasyprint WeasyPrint (bench/weasyprint.ts, Debian's package installed on first use) beside Quire and raw
 *              Chromium, the same figures; chosen with jsreport, all three peers and raw share one table;
 *   growth     bench/growth.ts: POST /v1/pdf with 0, 10,000 and 100,000 documents in the team's log (SQLite
 *              and PostgreSQL), the storage check alone, memory idle and after N renders.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/config.js';
import { invoiceTemplateData, validateEInvoice } from '../src/einvoice/index.js';
import { BUILT_IN_INVOICE_TEMPLATE } from '../src/einvoice/template/built-in-template.js';
import { chromiumArgs } from '../src/render/browser-supervisor.js';
import { EINVOICE_FIXTURES } from '../test/fixtures/einvoice-fixtures.js';
import { runBatchBenches } from './batches.js';
import { postPdf, type QuireProcess, RawChromium, startQuire } from './contenders.js';
import { finishingCost, finishingReport, signingCost, signingReport } from './finishing.js';
import { runGrowthBenches } from './growth.js';
import { versusPeers } from './jsreport-section.js';
import { liquidPoolOverhead, liquidPoolReport } from './liquid-pool.js';
import { alternatingThroughput, type LatencyResult, latency, throughput } from './measure.js';
import { mergeCost, mergeReport } from './merge.js';
import { pageCost, pageCostReport } from './pages.js';
import { openFds, type ProcessMemory, treeCpuMs, treeMemory } from './proc.js';
import { runScaleBenches } from './scale.js';
import { watermarkCost, watermarkReport } from './watermark.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.resolve(process.env.QUIRE_BENCH_FIXTURES ?? path.join(root, 'bench', 'fixtures'));
const quick = process.env.QUIRE_BENCH_QUICK === '1';
const SECTIONS = [
  'start',
  'latency',
  'throughput',
  'pages',
  'watermark',
  'finishing',
  'merge',
  'einvoice',
  'print',
  'soak',
  'idle',
  'liquid',
  'batches',
  'scale',
  'jsreport',
  'weasyprint',
  'growth',
] as const;
type Section = (typeof SECTIONS)[number];
const only = process.env.QUIRE_BENCH_ONLY;
const chosen = new Set((only?.split(',') ?? SECTIONS).map((name) => name.trim()));
for (const name of chosen)
  if (!(SECTIONS as readonly string[]).includes(name))
    throw new Error(`QUIRE_BENCH_ONLY: unknown section "${name}" (known: ${SECTIONS.join(', ')})`);
const wants = (section: Section) => chosen.has(section);
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
if (wants('start')) await startToFirstPdf();
if (['latency', 'throughput', 'einvoice', 'print', 'soak'].some((s) => wants(s as Section))) await core();
if (wants('pages')) {
  const figures = await pageCost(loadConfig({}).chromiumPath, quick ? 2 : 5);
  results.pages = figures;
  log();
  for (const line of pageCostReport(figures)) log(line);
}
if (wants('watermark')) {
  const figures = await watermarkCost(root, invoiceHtml, quick ? 10 : 30);
  results.watermark = figures;
  log();
  for (const line of watermarkReport(figures)) log(line);
}
if (wants('finishing')) {
  const figures = await finishingCost({ invoice: invoiceHtml, 'report 10 p': report }, quick ? 3 : 15);
  results.finishing = figures;
  log();
  log('### Finishing options (render engine + src/finishing, alternating rounds)');
  log();
  for (const line of finishingReport(figures)) log(line);
  const signing = await signingCost(invoiceHtml, quick ? 20 : 60);
  results.signing = signing;
  log();
  log(signingReport(signing));
}
if (wants('merge')) {
  const figures = await mergeCost(invoiceHtml, quick ? 3 : 20);
  results.merge = figures;
  log();
  for (const line of mergeReport(figures)) log(line);
}
if (wants('liquid')) {
  const figures = await liquidPoolOverhead(quick ? 100 : 500);
  results.liquid = figures;
  log();
  for (const line of liquidPoolReport(figures)) log(line);
}
if (wants('batches'))
  results.batches = await runBatchBenches({ root, quick, invoiceLiquid, invoiceData, log });
if (wants('scale'))
  results.scale = await runScaleBenches({ root, quick, invoiceLiquid, invoiceHtml, invoiceData, log });
if (wants('idle')) await idleMemory();
if (wants('jsreport') || wants('weasyprint'))
  results.peers = await versusPeers({
    root,
    fixtures,
    quick,
    invoiceLiquid,
    invoiceHtml,
    report,
    invoiceData,
    peers: { jsreport: wants('jsreport'), weasyprint: wants('weasyprint') },
    log,
  });
if (wants('growth'))
  results.growth = await runGrowthBenches({ root, quick, invoiceLiquid, invoiceData, log });

/**
 * Start to first PDF as users see it: spawn `quire serve` on a fresh data directory (migrations, first-run
 * team) → its first invoice PDF, on three fresh servers (the median). QUIRE_BENCH_COMPARE_ROOT names another
 * checkout (with its own build) whose servers start alternately with these, for a ratio within the run.
 * Each run's phases come from the server's own `serving` announcement (`startup_ms`, ms since the process
 * started: src/cli/startup-phases.ts) and from bench/raw-start.mjs's for the baseline.
 */
async function startToFirstPdf(): Promise<void> {
  const other = process.env.QUIRE_BENCH_COMPARE_ROOT;
  const roots = other ? [root, path.resolve(other)] : [root];
  const runs = new Map<string, StartRun[]>();
  const rawRuns: RawStart[] = [];
  for (let i = 0; i < 3; i++) {
    rawRuns.push(await rawStartToFirstPdf());
    for (const checkout of roots) {
      const quire = await startQuire(checkout);
      await postPdf(quire, { html: invoiceLiquid, data: invoiceData });
      const totalMs = performance.now() - quire.spawnedAt;
      const run: StartRun = {
        listenMs: quire.startToListenMs,
        firstPdfMs: totalMs - quire.startToListenMs,
        totalMs,
        phases: startupPhasesOf(quire.startupOutput ?? ''),
      };
      runs.set(checkout, [...(runs.get(checkout) ?? []), run]);
      await quire.close();
    }
  }
  const medians: Record<string, unknown> = {};
  for (const [checkout, list] of runs) {
    const median = [...list].sort((a, b) => a.totalMs - b.totalMs)[1] ?? list[0];
    medians[checkout] = { runs: list, median };
    log(
      `Start to first PDF${roots.length > 1 ? ` (${checkout})` : ''} (spawn of \`quire serve\` → first invoice PDF, median of 3): ${f(median?.totalMs ?? 0)} ms (listening after ${f(median?.listenMs ?? 0)} ms, then ${f(median?.firstPdfMs ?? 0)} ms); the three runs: ${list.map((r) => f(r.totalMs)).join(', ')} ms.`,
    );
    if (median) log(`  its phases (ms after spawn): ${phaseLine(median)}.`);
  }
  const rawMedian = [...rawRuns].sort((a, b) => a.ms - b.ms)[1] ?? { ms: 0, phases: {} };
  log(
    `Raw playwright-core in a fresh Node process (import, launch, page, invoice PDF), median of 3: ${f(rawMedian.ms)} ms (${rawRuns.map((r) => f(r.ms)).join(', ')}); Quire / raw: ${ratio((medians[root] as { median: { totalMs: number } }).median.totalMs, rawMedian.ms)}.`,
  );
  log(
    `  its phases (ms after the process started): ${Object.entries(rawMedian.phases)
      .map(([name, ms]) => `${name} ${f(ms)}`)
      .join(' → ')}.`,
  );
  results.start = { ...medians, raw: { runs: rawRuns, median: rawMedian } };
  log();
}

interface StartRun {
  listenMs: number;
  firstPdfMs: number;
  totalMs: number;
  /** The server's `startup_ms` (ms since its process started, and its CPU ms by then), if it announced them. */
  phases: Record<string, number>;
}

interface RawStart {
  ms: number;
  phases: Record<string, number>;
}

/** `startup_ms` of the `serving` record a `quire serve` wrote on stderr (JSON, since stderr is no terminal). */
function startupPhasesOf(stderr: string): Record<string, number> {
  for (const line of stderr.split('\n')) {
    if (!line.includes('"serving"')) continue;
    try {
      const record = JSON.parse(line) as { event?: string; startup_ms?: Record<string, number> };
      if (record.event === 'serving') return record.startup_ms ?? {};
    } catch {
      // Not a JSON record: a server too old to announce its phases.
    }
  }
  return {};
}

/** `cli 120 → modules 380 → … → first PDF 1450 (CPU 900 ms by serving)`, in the order reached. */
function phaseLine(run: StartRun): string {
  const { cpu, ...phases } = run.phases;
  const steps = Object.entries(phases)
    .sort((a, b) => a[1] - b[1])
    .map(([name, ms]) => `${name} ${f(ms)}`);
  steps.push(`first PDF ${f(run.totalMs)}`);
  return `${steps.join(' → ')}${cpu === undefined ? '' : ` (server CPU ${f(cpu)} ms by serving)`}`;
}

/** Spawn → PDF of bench/raw-start.mjs (the same Chromium, started by playwright-core alone), and its phases. */
async function rawStartToFirstPdf(): Promise<RawStart> {
  const t0 = performance.now();
  const script = path.join(root, 'bench', 'raw-start.mjs');
  const args = [
    script,
    loadConfig({}).chromiumPath,
    path.join(fixtures, 'invoice.html'),
    JSON.stringify(chromiumArgs(false)),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/done.*\n/.test(out)) resolve(out);
    });
    child.on('exit', (code) => reject(new Error(`raw-start exited ${code} before its PDF`)));
  });
  const ms = performance.now() - t0;
  await new Promise((resolve) => child.once('exit', resolve));
  const json = /done (\{.*\})/.exec(line)?.[1];
  return { ms, phases: json ? (JSON.parse(json) as Record<string, number>) : {} };
}

/** The sections on one `quire serve` (and one raw Chromium): start-up and per-document comparisons. */
async function core(): Promise<void> {
  const quire = await startQuire(root);
  const firstT0 = performance.now();
  await postPdf(quire, { html: invoiceLiquid, data: invoiceData });
  const firstPdfMs = performance.now() - firstT0;
  const pid = quire.child.pid ?? 0;
  const quireCpu = () => treeCpuMs(pid);
  Object.assign(results, { startToListenMs: quire.startToListenMs, firstPdfMs });
  log(
    `This server: start to listening ${f(quire.startToListenMs)} ms, then first invoice PDF ${f(firstPdfMs)} ms (start to first PDF ${f(quire.startToListenMs + firstPdfMs)} ms).`,
  );
  log();
  const fast: Record<string, number> = {};
  if (wants('latency') || wants('throughput')) await versusRaw(quire, quireCpu, fast);
  if (wants('einvoice')) await eInvoice(quire, quireCpu);
  if (wants('print')) await printMode(quire, quireCpu, fast);
  if (wants('soak')) await soak(quire, pid);
  await quire.close();
}

function quireInvoiceOf(quire: QuireProcess): () => Promise<Buffer> {
  return () => postPdf(quire, { html: invoiceLiquid, data: invoiceData });
}

async function versusRaw(quire: QuireProcess, quireCpu: () => number, fast: Record<string, number>) {
  const raw = await RawChromium.start(loadConfig({}).chromiumPath, 4);
  // The bench process and raw's Chromium, not the Quire server it also started.
  const rawCpu = () => treeCpuMs(process.pid, [quire.child.pid ?? 0]);
  const quireInvoice = quireInvoiceOf(quire);
  if (wants('latency')) {
    log(
      '| Document | raw p50 ms | Quire p50 ms | ratio | raw p95 | Quire p95 | raw CPU ms/doc | Quire CPU ms/doc |',
    );
    log('|---|---|---|---|---|---|---|---|');
    const docs: Array<[string, () => Promise<unknown>, () => Promise<unknown>, number]> = [
      ['invoice (1 p, Liquid)', () => raw.render(invoiceHtml), quireInvoice, quick ? 15 : 40],
      ['report (10 p)', () => raw.render(report), () => postPdf(quire, { html: report }), quick ? 4 : 10],
      ['document (50 p)', () => raw.render(doc50), () => postPdf(quire, { html: doc50 }), quick ? 2 : 4],
    ];
    for (const [name, rawOnce, quireOnce, n] of docs) {
      const a = await latency(rawOnce, n, rawCpu);
      const b = await latency(quireOnce, n, quireCpu);
      fast[name] = b.p50;
      results[name] = { raw: a, quire: b };
      log(
        `| ${name} | ${f(a.p50)} | ${f(b.p50)} | ${ratio(b.p50, a.p50)} | ${f(a.p95)} | ${f(b.p95)} | ${f(a.cpuMsPerDoc)} | ${f(b.cpuMsPerDoc)} |`,
      );
    }
    const invoice = results['invoice (1 p, Liquid)'] as { raw: LatencyResult; quire: LatencyResult };
    log();
    log(
      `CPU per invoice, whole process trees: Quire ${f(invoice.quire.cpuMsPerDoc, 1)} ms, raw ${f(invoice.raw.cpuMsPerDoc, 1)} ms: Quire − raw = ${f(invoice.quire.cpuMsPerDoc - invoice.raw.cpuMsPerDoc, 1)} ms (target ≤ 10 ms; the raw tree is the bench process with its Chromium).`,
    );
    log();
  }
  if (wants('throughput')) {
    log('| Invoice throughput | raw docs/s | Quire docs/s | ratio |');
    log('|---|---|---|---|');
    for (const c of [1, 2, 4]) {
      const [a = 0, b = 0] = await alternatingThroughput(
        [() => raw.render(invoiceHtml), quireInvoice],
        quick ? 6 : 12,
        quick ? 2 : 4,
        c,
      );
      results[`throughput c=${c}`] = { raw: a, quire: b };
      log(`| c=${c} | ${f(a, 1)} | ${f(b, 1)} | ${ratio(b, a)} |`);
    }
    log();
  }
  await raw.close();
}

/** A Factur-X EN 16931 e-invoice (CII XML, PDF/A-3b) vs its built-in template rendered as a plain PDF. */
async function eInvoice(quire: QuireProcess, quireCpu: () => number): Promise<void> {
  const fixture = EINVOICE_FIXTURES.find((x) => x.name === 'two-rates-allowances-prepaid');
  if (!fixture) throw new Error('e-invoice fixture missing');
  const e_invoice = { standard: 'factur-x', profile: 'en16931', invoice: fixture.invoice };
  const validation = validateEInvoice(e_invoice);
  if (!validation.ok) throw validation.error;
  const plainBody = { html: BUILT_IN_INVOICE_TEMPLATE, data: invoiceTemplateData(validation.value) };
  const n = quick ? 10 : 30;
  // The built-in template renders e-invoices in print mode (its default, as for templates) and plain
  // `html` in fast mode: each e-invoice is compared with the plain invoice in the same mode, so the
  // figure is what the e-invoice itself costs (XML, PDF/A-3b), not the mode.
  const rows: Array<[string, LatencyResult, LatencyResult]> = [];
  for (const mode of ['print', 'fast'] as const) {
    const plain = await latency(() => postPdf(quire, { ...plainBody, mode }), n, quireCpu);
    const einvoice = await latency(() => postPdf(quire, { e_invoice, mode }), n, quireCpu);
    rows.push([mode, plain, einvoice]);
  }
  results.einvoice = Object.fromEntries(rows.map(([mode, plain, einvoice]) => [mode, { plain, einvoice }]));
  log(
    '| E-invoice (same invoice, same server, same mode) | plain p50 ms | Factur-X p50 ms | p50 ratio | plain CPU ms/doc | Factur-X CPU ms/doc | CPU ratio |',
  );
  log('|---|---|---|---|---|---|---|');
  for (const [mode, plain, einvoice] of rows)
    log(
      `| ${mode} mode${mode === 'print' ? ' (the e-invoice default)' : ''} | ${f(plain.p50)} | ${f(einvoice.p50)} | ${ratio(einvoice.p50, plain.p50)} | ${f(plain.cpuMsPerDoc)} | ${f(einvoice.cpuMsPerDoc)} | ${ratio(einvoice.cpuMsPerDoc, plain.cpuMsPerDoc)} |`,
    );
  log();
}

async function printMode(quire: QuireProcess, quireCpu: () => number, fastSoFar: Record<string, number>) {
  const fastInvoice =
    fastSoFar['invoice (1 p, Liquid)'] ??
    (await latency(quireInvoiceOf(quire), quick ? 10 : 30, quireCpu)).p50;
  const fastReport =
    fastSoFar['report (10 p)'] ??
    (await latency(() => postPdf(quire, { html: report }), quick ? 3 : 8, quireCpu)).p50;
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
  log('| Print mode (Quire) | fast p50 ms | print p50 ms | print / fast |');
  log('|---|---|---|---|');
  log(`| invoice | ${f(fastInvoice)} | ${f(printInvoice.p50)} | ${ratio(printInvoice.p50, fastInvoice)} |`);
  log(`| report (10 p) | ${f(fastReport)} | ${f(printReport.p50)} | ${ratio(printReport.p50, fastReport)} |`);
  log(
    `| invoice + running header (polyfill) | ${f(fastInvoice)} | ${f(polyfill.p50)} | ${ratio(polyfill.p50, fastInvoice)} |`,
  );
  log();
}

/** The soak's checkpoints (renders done): QUIRE_BENCH_SOAK, else 1,000 and 10,000 (quick: 200 and 600). */
function soakCheckpoints(): number[] {
  const setting = process.env.QUIRE_BENCH_SOAK;
  const list = setting
    ? setting.split(',').map((n) => Number(n.trim()))
    : quick
      ? [200, 600]
      : [1000, 10_000];
  if (list.length === 0 || list.some((n, i) => !Number.isInteger(n) || n <= 0 || n <= (list[i - 1] ?? 0)))
    throw new Error(`QUIRE_BENCH_SOAK: increasing positive counts, comma-separated (got "${setting}")`);
  return list;
}

interface TreeFigures {
  /** Summed RSS of the server and its Chromium processes: shared pages counted in each. */
  rssMb: number;
  /** Summed PSS: each shared page counted once, split between the processes that map it. */
  pssMb: number;
  /** Open file descriptors of the Node process. */
  fds: number;
  processes: number;
}

function treeFigures(pid: number): TreeFigures & { perProcess: ProcessMemory[] } {
  const perProcess = treeMemory(pid);
  return {
    rssMb: perProcess.reduce((sum, p) => sum + p.rssMb, 0),
    pssMb: perProcess.reduce((sum, p) => sum + p.pssMb, 0),
    fds: openFds(pid),
    processes: perProcess.length,
    perProcess,
  };
}

// A declaration, not a const: the sections run from top-level awaits above, before later consts exist.
function growth(from: number, to: number): string {
  return `${to >= from ? '+' : ''}${((to / from - 1) * 100).toFixed(1)} %`;
}

async function soak(quire: QuireProcess, pid: number): Promise<void> {
  const quireInvoice = quireInvoiceOf(quire);
  const checkpoints = soakCheckpoints();
  const rows: Array<[number, TreeFigures]> = [];
  let done = 0;
  for (const count of checkpoints) {
    await throughput(quireInvoice, count - done, 2);
    done = count;
    const { perProcess: _, ...figures } = treeFigures(pid);
    rows.push([count, figures]);
  }
  results.soak = Object.fromEntries(rows);
  log('| Soak (invoice, c=2) | PSS Quire + Chromium MB | RSS summed MB | open fds (Node) | processes |');
  log('|---|---|---|---|---|');
  for (const [count, x] of rows)
    log(`| after ${count} renders | ${f(x.pssMb)} | ${f(x.rssMb)} | ${x.fds} | ${x.processes} |`);
  const [firstCount, first] = rows[0] ?? [0, undefined];
  const [lastCount, last] = rows.at(-1) ?? [0, undefined];
  if (first && last && rows.length > 1)
    log(
      `Growth between ${firstCount} and ${lastCount} renders: PSS ${growth(first.pssMb, last.pssMb)}, summed RSS ${growth(first.rssMb, last.rssMb)} (target: within +10 %); open fds ${first.fds} → ${last.fds}.`,
    );
  log();
}

/**
 * An idle service (issue: ≤ 350 MB): a fresh `quire serve` (default settings), its first invoice PDF, then 10 s
 * idle; PSS and summed RSS of the server and its Chromium processes, process by process. Then the Node heap from
 * a diagnostic report (`--report-on-signal`, asked for after the memory is read).
 */
async function idleMemory(): Promise<void> {
  // Idle this long after the first PDF: the pool's other pages are made 3 s after the first serves.
  const idleMs = 10_000;
  const reports = mkdtempSync(path.join(tmpdir(), 'quire-bench-idle-'));
  const quire = await startQuire(
    root,
    {},
    { NODE_OPTIONS: `--report-on-signal --report-signal=SIGUSR2 --report-directory=${reports}` },
  );
  try {
    await postPdf(quire, { html: invoiceLiquid, data: invoiceData });
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const pid = quire.child.pid ?? 0;
    const idle = treeFigures(pid);
    const heap = await nodeHeap(quire, reports);
    results.idle = { ...idle, heap };
    log(
      `Idle service (fresh \`quire serve\`, default settings but for QUIRE_* variables in the bench's environment, first invoice PDF, then ${idleMs / 1000} s idle): PSS ${f(idle.pssMb)} MB, summed RSS ${f(idle.rssMb)} MB, ${idle.processes} processes, ${idle.fds} open fds (target ≤ 350 MB).`,
    );
    log();
    log('| Process (idle) | pid | PSS MB | RSS MB |');
    log('|---|---|---|---|');
    for (const p of idle.perProcess) log(`| ${p.kind} | ${p.pid} | ${f(p.pssMb, 1)} | ${f(p.rssMb, 1)} |`);
    log();
    log(`By kind (PSS): ${byKindLine(idle.perProcess)}.${heap ? ` ${heapLine(heap)}` : ''}`);
    log();
  } finally {
    await quire.close();
    rmSync(reports, { recursive: true, force: true });
  }
}

/** PSS summed per kind of process (node, browser, renderer ×N, gpu-process, …). */
function byKindLine(processes: ProcessMemory[]): string {
  const byKind = new Map<string, { count: number; pssMb: number }>();
  for (const p of processes) {
    const entry = byKind.get(p.kind) ?? { count: 0, pssMb: 0 };
    byKind.set(p.kind, { count: entry.count + 1, pssMb: entry.pssMb + p.pssMb });
  }
  return [...byKind].map(([kind, x]) => `${kind} ×${x.count} ${f(x.pssMb)} MB`).join(', ');
}

function heapLine(heap: HeapFigures): string {
  const spaces = heap.spaces
    .slice(0, 4)
    .map(([name, size]) => `${name} ${f(size)}`)
    .join(', ');
  return `Node heap: ${f(heap.mainUsedMb)} of ${f(heap.mainTotalMb)} MB used in the main thread (largest spaces: ${spaces} MB); ${heap.workers} worker threads, ${f(heap.workersTotalMb)} MB of heap together; the report's resident set ${f(heap.rssMb)} MB.`;
}

interface HeapFigures {
  /** The main thread's heap spaces by committed size, MB, largest first. */
  spaces: Array<[string, number]>;
  mainUsedMb: number;
  mainTotalMb: number;
  workers: number;
  workersTotalMb: number;
  rssMb: number;
}

/** The server's V8 heaps, main thread and workers (Liquid, untrusted files), from a diagnostic report. */
async function nodeHeap(quire: QuireProcess, dir: string): Promise<HeapFigures | null> {
  quire.child.kill('SIGUSR2');
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const file = readdirSync(dir).find((name) => name.endsWith('.json'));
    if (!file) continue;
    try {
      const report = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as DiagnosticReport;
      const mb = (bytes: number) => bytes / (1024 * 1024);
      const workers = report.workers ?? [];
      const spaces = Object.entries(report.javascriptHeap.heapSpaces ?? {})
        .map(([name, space]): [string, number] => [name, mb(space.memorySize)])
        .sort((a, b) => b[1] - a[1]);
      return {
        spaces,
        mainUsedMb: mb(report.javascriptHeap.usedMemory),
        mainTotalMb: mb(report.javascriptHeap.totalMemory),
        workers: workers.length,
        workersTotalMb: mb(workers.reduce((sum, w) => sum + (w.javascriptHeap?.totalMemory ?? 0), 0)),
        rssMb: mb(Number(report.resourceUsage?.rss ?? 0)),
      };
    } catch {
      // Still being written.
    }
  }
  return null;
}

interface DiagnosticReport {
  javascriptHeap: {
    totalMemory: number;
    usedMemory: number;
    heapSpaces?: Record<string, { memorySize: number }>;
  };
  workers?: Array<{ javascriptHeap?: { totalMemory: number } }>;
  resourceUsage?: { rss?: number | string };
}

mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
writeFileSync(path.join(root, 'bench', 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(path.join(root, 'bench', 'results', 'latest.md'), `${lines.join('\n')}\n`);
