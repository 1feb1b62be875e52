/**
 * The peers of `npm run bench` (sections `jsreport` and `weasyprint`): Quire and raw playwright-core on the same
 * Chromium beside jsreport 4 (Chromium too) and/or WeasyPrint (its own layout engine, no JavaScript), on the same
 * fixtures and machine in one run, in one table. Start to first PDF (fresh processes), p50/p95 latency and CPU per
 * document (each contender's whole process tree) at c=1, throughput at c=1/2/4 in alternating rounds, memory.
 */
import { execFileSync } from 'node:child_process';
import { loadConfig } from '../src/config/config.js';
import { LiquidRenderer } from '../src/liquid/index.js';
import { postPdf, type QuireProcess, RawChromium, startQuire } from './contenders.js';
import { type JsreportProcess, startJsreport } from './jsreport.js';
import { alternatingThroughput, type LatencyResult, latency } from './measure.js';
import { processTree, treeCpuMs, treePssMb, treeRssMb } from './proc.js';
import { startWeasyprint, type WeasyprintPool, weasyprintCli } from './weasyprint.js';

export interface PeersSectionOptions {
  root: string;
  fixtures: string;
  quick: boolean;
  invoiceLiquid: string;
  invoiceHtml: string;
  report: string;
  invoiceData: Record<string, unknown>;
  /** The peers in this run's table (at least one). */
  peers: { jsreport: boolean; weasyprint: boolean };
  log(line?: string): void;
}

/** One column of the tables: how it renders each document and what CPU its processes have used. */
interface Contender {
  /** Its key in the results (raw, quire, jsreport, weasyprint). */
  key: string;
  label: string;
  invoice(): Promise<Buffer>;
  report(): Promise<Buffer>;
  cpuMs(): number;
}

const f = (n: number, digits = 0) => n.toFixed(digits);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
/** WeasyPrint renders one document per driver process: as many drivers as the highest concurrency measured. */
const WEASYPRINT_DRIVERS = 4;

/** The text a reader sees, whitespace folded. */
function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf })
    .toString()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Pages of a PDF: pdftotext ends every page with a form feed. */
function pageCount(pdf: Buffer): number {
  return execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString().split('\f').length - 1;
}

/**
 * Words of `expected` that `actual` lacks, even with its spaces removed: another layout engine may order lines
 * differently, and pdftotext splits letter-spaced capitals ("FR OM") where one engine spaces them.
 */
function missingWords(expected: string, actual: string): string[] {
  const have = new Set(actual.split(' '));
  const joined = actual.replace(/ /g, '');
  return [...new Set(expected.split(' '))].filter((word) => !have.has(word) && !joined.includes(word));
}

function memory(pid: number) {
  return { rssMb: treeRssMb(pid), pssMb: treePssMb(pid), processes: processTree(pid).length };
}

export async function versusPeers(options: PeersSectionOptions): Promise<Record<string, unknown>> {
  const { log, quick, root, fixtures, invoiceData, peers } = options;
  const chromiumPath = loadConfig({}).chromiumPath;
  const results: Record<string, unknown> = {};
  const names = [peers.jsreport && 'jsreport 4', peers.weasyprint && 'WeasyPrint'].filter(Boolean);
  log();
  log(`## Quire vs ${names.join(' vs ')} vs raw Chromium (same fixtures and run)`);
  log();
  if (peers.jsreport) {
    const trusted = process.env.QUIRE_BENCH_JSREPORT_TRUSTED === '1';
    results.jsreportTrustUserCode = trusted;
    log(
      `jsreport ${trusted ? 'with trustUserCode: true (helpers outside its sandbox; QUIRE_BENCH_JSREPORT_TRUSTED=1)' : 'with its default sandbox for template helpers (trustUserCode: false; QUIRE_BENCH_JSREPORT_TRUSTED=1 lifts it)'}, on the same Chromium and flags as Quire.`,
    );
    log();
    results.start = await startToFirstPdf(options, chromiumPath, quick ? 1 : 3);
  }
  // WeasyPrint is given the invoice Quire prints: the Liquid template rendered with its data by Quire's Liquid.
  const invoiceRendered = new LiquidRenderer().renderSource(options.invoiceLiquid, invoiceData).html;
  if (peers.weasyprint) await weasyprintAlone(options, invoiceRendered, results);

  let jsreport: JsreportProcess | undefined;
  let weasyprint: WeasyprintPool | undefined;
  let quire: QuireProcess | undefined;
  let raw: RawChromium | undefined;
  try {
    if (peers.jsreport) jsreport = await startJsreport({ root, chromiumPath, fixtures });
    if (peers.weasyprint) weasyprint = await startWeasyprint(root, WEASYPRINT_DRIVERS);
    const q = await startQuire(root);
    quire = q;
    const r = await RawChromium.start(chromiumPath, 4);
    raw = r;
    const peerPids = () => [
      q.child.pid ?? 0,
      ...(jsreport ? [jsreport.child.pid ?? 0] : []),
      ...(weasyprint ? weasyprint.pids() : []),
    ];
    const contenders: Contender[] = [
      {
        key: 'raw',
        label: 'raw',
        invoice: () => r.render(options.invoiceHtml),
        report: () => r.render(options.report),
        // The bench process and raw's Chromium, without the other contenders' servers.
        cpuMs: () => treeCpuMs(process.pid, peerPids()),
      },
      {
        key: 'quire',
        label: 'Quire',
        invoice: () => postPdf(q, { html: options.invoiceLiquid, data: invoiceData }),
        report: () => postPdf(q, { html: options.report }),
        cpuMs: () => treeCpuMs(q.child.pid ?? 0),
      },
    ];
    const js = jsreport;
    if (js)
      contenders.push({
        key: 'jsreport',
        label: 'jsreport',
        invoice: () => js.render('invoice', invoiceData),
        report: () => js.render('report'),
        cpuMs: () => treeCpuMs(js.child.pid ?? 0),
      });
    const wp = weasyprint;
    if (wp)
      contenders.push({
        key: 'weasyprint',
        label: 'WeasyPrint',
        invoice: () => wp.render(invoiceRendered),
        report: () => wp.render(options.report),
        cpuMs: () => wp.cpuMs(),
      });
    await checkSameInvoice(contenders, results, log);
    await latencyTable(contenders, quick, results, log);
    await throughputTable(contenders, quick, results, log);
    const mem: Record<string, unknown> = { quire: memory(q.child.pid ?? 0) };
    if (js) mem.jsreport = memory(js.child.pid ?? 0);
    if (wp) mem.weasyprint = wp.memory();
    results.memory = mem;
    log();
    log(`Memory after these renders, whole process trees: ${memoryLine(mem)}.`);
    log(
      'PSS counts each shared page once; summed RSS counts it in every process. Raw Chromium shares the bench process and is not listed.',
    );
    log();
  } finally {
    await raw?.close();
    await quire?.close();
    await jsreport?.close();
    await weasyprint?.close();
  }
  return results;
}

function memoryLine(mem: Record<string, unknown>): string {
  const labels: Record<string, string> = {
    quire: 'Quire (Node + Chromium)',
    jsreport: 'jsreport (Node + Chromium)',
    weasyprint: `WeasyPrint (${WEASYPRINT_DRIVERS} Python drivers)`,
  };
  return Object.entries(mem)
    .map(([key, value]) => {
      const m = value as ReturnType<typeof memory>;
      return `${labels[key]} PSS ${f(m.pssMb)} MB (RSS summed ${f(m.rssMb)} MB, ${m.processes} processes)`;
    })
    .join(', ');
}

/** The peers must print the same invoice as Quire: jsreport its text exactly, WeasyPrint every word of it. */
async function checkSameInvoice(
  contenders: Contender[],
  results: Record<string, unknown>,
  log: (line?: string) => void,
): Promise<void> {
  const quire = contenders.find((c) => c.key === 'quire');
  if (!quire) return;
  const quirePdf = await quire.invoice();
  const quireText = pdfText(quirePdf);
  for (const peer of contenders) {
    if (peer.key === 'jsreport') {
      const same = pdfText(await peer.invoice()) === quireText;
      results.sameInvoiceText = same;
      log(`Same invoice text in jsreport's and Quire's PDF (pdftotext): ${same ? 'yes' : 'NO'}.`);
    }
    if (peer.key === 'weasyprint') {
      const pdf = await peer.invoice();
      const missing = missingWords(quireText, pdfText(pdf));
      const pages = { quire: pageCount(quirePdf), weasyprint: pageCount(pdf) };
      Object.assign(results, { weasyprintMissingWords: missing, invoicePages: pages });
      log(
        `Every word of Quire's invoice text in WeasyPrint's PDF (pdftotext; its own layout orders lines differently): ${missing.length === 0 ? 'yes' : `NO, missing ${missing.length}: ${missing.slice(0, 20).join(' ')}`}. Invoice pages: Quire ${pages.quire}, WeasyPrint ${pages.weasyprint}.`,
      );
    }
  }
  log();
}

/** Where Quire is among the contenders, and what its ratios are against: each peer, then raw (the old table's order). */
function comparisons(contenders: Contender[]): { quireAt: number; against: Contender[] } {
  const quireAt = contenders.findIndex((c) => c.key === 'quire');
  const against = [...contenders.slice(2), contenders[0]].filter((c): c is Contender => c !== undefined);
  return { quireAt, against };
}

async function latencyTable(
  contenders: Contender[],
  quick: boolean,
  results: Record<string, unknown>,
  log: (line?: string) => void,
): Promise<void> {
  const { quireAt, against } = comparisons(contenders);
  const labels = contenders.map((c) => c.label);
  log(
    `| Document (c=1) | ${labels.map((l) => `${l} p50`).join(' | ')} | ${against.map((c) => `Quire / ${c.label} p50`).join(' | ')} | ${labels.map((l) => `${l} p95`).join(' | ')} | CPU ms/doc ${labels.join(' · ')} |`,
  );
  log(`|---|${'---|'.repeat(2 * labels.length + against.length + 1)}`);
  const docs: Array<[string, 'invoice' | 'report', number]> = [
    ['invoice', 'invoice', quick ? 8 : 40],
    ['report (10 p)', 'report', quick ? 3 : 10],
  ];
  for (const [name, doc, n] of docs) {
    const figures: LatencyResult[] = [];
    for (const c of contenders)
      figures.push(
        await latency(
          () => c[doc](),
          n,
          () => c.cpuMs(),
        ),
      );
    results[name] = Object.fromEntries(contenders.map((c, i) => [c.key, figures[i]]));
    const quire = figures[quireAt] as LatencyResult;
    const of = (c: Contender) => figures[contenders.indexOf(c)] as LatencyResult;
    log(
      `| ${name} | ${figures.map((x) => f(x.p50)).join(' | ')} | ${against.map((c) => ratio(quire.p50, of(c).p50)).join(' | ')} | ${figures.map((x) => f(x.p95)).join(' | ')} | ${figures.map((x) => f(x.cpuMsPerDoc)).join(' · ')} |`,
    );
  }
}

async function throughputTable(
  contenders: Contender[],
  quick: boolean,
  results: Record<string, unknown>,
  log: (line?: string) => void,
): Promise<void> {
  const { quireAt, against } = comparisons(contenders);
  log();
  log(
    `| Invoice throughput | ${contenders.map((c) => `${c.label} docs/s`).join(' | ')} | ${against.map((c) => `Quire / ${c.label}`).join(' | ')} |`,
  );
  log(`|---|${'---|'.repeat(contenders.length + against.length)}`);
  for (const c of [1, 2, 4]) {
    const rates = await alternatingThroughput(
      contenders.map((x) => () => x.invoice()),
      quick ? 4 : 12,
      quick ? 2 : 4,
      c,
    );
    results[`throughput c=${c}`] = Object.fromEntries(contenders.map((x, i) => [x.key, rates[i]]));
    const quire = rates[quireAt] ?? 0;
    log(
      `| c=${c} | ${rates.map((r) => f(r, 1)).join(' | ')} | ${against.map((x) => ratio(quire, rates[contenders.indexOf(x)] ?? 0)).join(' | ')} |`,
    );
  }
}

/**
 * WeasyPrint's own figures outside the table: its version, whether `invoice.html` is the rendered template, the
 * driver's start (Python + `import weasyprint`) and first invoice, and Debian's CLI per document (a fresh Python
 * every time) for reference.
 */
async function weasyprintAlone(
  options: PeersSectionOptions,
  invoiceRendered: string,
  results: Record<string, unknown>,
): Promise<void> {
  const { log, quick, root } = options;
  const t0 = performance.now();
  const one = await startWeasyprint(root, 1);
  let firstMs: number;
  try {
    const t1 = performance.now();
    await one.render(invoiceRendered);
    firstMs = performance.now() - t1;
  } finally {
    await one.close();
  }
  const totalMs = performance.now() - t0;
  const cli = await weasyprintCli(invoiceRendered, quick ? 2 : 5);
  const sameFixture = invoiceRendered === options.invoiceHtml;
  results.weasyprint = { version: one.version, startToReadyMs: one.startToReadyMs, firstMs, totalMs, cli };
  log(
    `WeasyPrint ${one.version} (Debian's package; BSD-3-Clause) through bench/weasyprint/server.py, a Python driver that imports it once; ${WEASYPRINT_DRIVERS} drivers for c up to 4. It is given \`invoice.liquid.html\` rendered once with \`invoice.data.json\` by Quire's Liquid (${sameFixture ? 'identical to' : 'not byte-identical to'} \`invoice.html\`, which raw Chromium prints). No JavaScript; its own layout engine${Number(one.version.split('.')[0]) < 62 ? " (before 62 without CSS Grid: the invoice's two-column blocks stack)" : ''} honours the document's \`@page\` rules (A4, 18/18/16/18 mm) where Quire and raw pass 20 mm margins to Chromium. Its figures are the same input, not the same output: see the page counts below.`,
  );
  log();
  log(
    `WeasyPrint driver: spawn → ready (Python + \`import weasyprint\`) ${f(one.startToReadyMs)} ms, then its first invoice ${f(firstMs)} ms. Debian's CLI (\`weasyprint in.html out.pdf\`, a fresh Python per document), median of ${cli.runs.length}: ${f(cli.medianMs)} ms, ${f(cli.cpuMsPerDoc)} ms of CPU per document (runs: ${cli.runs.map((t) => f(t)).join(', ')} ms).`,
  );
  log();
}

/** Spawn → first invoice PDF of fresh jsreport and Quire processes, alternating; the median of `runs`. */
async function startToFirstPdf(
  options: PeersSectionOptions,
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
