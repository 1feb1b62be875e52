/**
 * The batch section of `npm run bench`, on its own Quire server (own data directory, the Scale
 * plan with room for 10,000-item batches):
 *
 * 1. throughput: N invoices (bench fixture, a stored template) as one test-mode batch, POST → every item
 *    done and POST → batch completed (ZIP built, batch.completed recorded), against the same N documents
 *    as concurrent POST /v1/pdf at the plan's render concurrency, in the same run;
 * 2. a big batch of a tiny template (QUIRE_BENCH_BATCH_ITEMS, default 10,000): the POST's latency (batch
 *    creation), the server's RSS from the first to the last item and its peak while the ZIP is built;
 * 3. a 10,000-row × 20-column XLSX read through POST /v1/spreadsheets/parse and by readSpreadsheet directly.
 */
import { readSpreadsheet } from '../src/batches/spreadsheet.js';
import { makeXlsx, type XlsxCell } from '../test/helpers/xlsx.js';
import { postPdf, type QuireProcess, startQuire } from './contenders.js';
import { throughput } from './measure.js';
import { processRssMb, treeRssMb } from './proc.js';

export interface BatchBenchOptions {
  root: string;
  quick: boolean;
  invoiceLiquid: string;
  invoiceData: Record<string, unknown>;
  log(line?: string): void;
}

/** Scale's render concurrency (4): POST /v1/pdf runs this many at once, batches get one less (spec). */
const RENDER_CONCURRENCY = 4;
const XLSX_ROWS = 10_000;
/** Items of the creation-latency batch (the spec's maximum). */
const CREATION_ITEMS = 10_000;
const XLSX_COLUMNS = 20;
/** Parses of the workbook per contender: the first is cold (module load, JIT), the median is reported too. */
const PARSE_RUNS = 3;

interface BatchJson {
  id: string;
  completed_at: string | null;
  counts: { total: number; queued: number; processing: number; succeeded: number; failed: number };
}

export async function runBatchBenches(options: BatchBenchOptions): Promise<Record<string, unknown>> {
  const { quick, log } = options;
  const bigItems = Number(process.env.QUIRE_BENCH_BATCH_ITEMS ?? (quick ? 100 : 10_000));
  const throughputItems = quick ? 100 : 1_000;
  const quire = await startQuire(options.root, {
    render_concurrency: RENDER_CONCURRENCY,
    batch_max_items: 10_000,
    open_jobs: 20_000,
    test_jobs_per_day: 1_000_000,
  });
  const f = (n: number, digits = 0) => n.toFixed(digits);
  try {
    const results: Record<string, unknown> = {};
    log();
    log(`## Batches (${throughputItems}-item invoice batch, ${bigItems}-item RSS batch)`);
    log();
    log(
      `Scale plan, render concurrency ${RENDER_CONCURRENCY} (batch items may use ${RENDER_CONCURRENCY - 1}); ` +
        `QUIRE_WORKERS=${process.env.QUIRE_WORKERS ?? '2 (default)'} render workers; ` +
        `QUIRE_RENDER_POOL_SIZE=${process.env.QUIRE_RENDER_POOL_SIZE ?? '2 (default)'} pages.`,
    );
    log();

    const invoice = await createTemplate(quire, 'Invoice', options.invoiceLiquid, options.invoiceData);
    // Warm-up: the template's first renders (Liquid compile, page warm-up) count in neither contender.
    await throughput(
      tolerant(() => postPdf(quire, { template_id: invoice, data: options.invoiceData }), { direct: 0 }),
      8,
      2,
    );

    // Test mode on both sides, like the batch: test PDFs are watermarked (pdf-lib + fontkit in Node,
    // tens of ms per document), so a live POST /v1/pdf would not be the same work.
    // A render failure (e.g. the 1 s Liquid limit on an overloaded machine) is counted, not fatal, on both sides.
    const failures = { direct: 0 };
    const direct = await timed(() =>
      throughput(
        tolerant(
          () => postPdf(quire, { template_id: invoice, data: options.invoiceData, test: true }),
          failures,
        ),
        throughputItems,
        RENDER_CONCURRENCY,
      ),
    );
    // The batch stores every PDF (fsync'd blob, then the row): stored direct renders show what that costs.
    const storedItems = Math.max(50, Math.ceil(throughputItems / 4));
    const stored = await timed(() =>
      throughput(
        tolerant(
          () =>
            postPdf(quire, {
              template_id: invoice,
              data: options.invoiceData,
              response: 'url',
              test: true,
            }),
          failures,
        ),
        storedItems,
        RENDER_CONCURRENCY,
      ),
    );
    const storedRate = storedItems / (stored.ms / 1000);
    const batch = await runBatch(quire, invoice, throughputItems, () => ({ data: options.invoiceData }), 250);
    const directRate = throughputItems / (direct.ms / 1000);
    const batchRate = throughputItems / (batch.itemsDoneMs / 1000);
    results.throughput = {
      items: throughputItems,
      directMs: direct.ms,
      storedItems,
      storedMs: stored.ms,
      ...batch.summary,
    };
    log('| Invoice, same documents | wall s | docs/s | vs POST /v1/pdf |');
    log('|---|---|---|---|');
    log(
      `| ${throughputItems} × POST /v1/pdf (test), c=${RENDER_CONCURRENCY} | ${f(direct.ms / 1000, 1)} | ${f(directRate, 1)} | 1.00× |`,
    );
    log(
      `| ${storedItems} × POST /v1/pdf, response: url (test, stored), c=${RENDER_CONCURRENCY} | ${f(stored.ms / 1000, 1)} | ${f(storedRate, 1)} | ${(storedRate / directRate).toFixed(2)}× |`,
    );
    log(
      `| batch of ${throughputItems} (test), POST → all items done | ${f(batch.itemsDoneMs / 1000, 1)} | ${f(batchRate, 1)} | ${(batchRate / directRate).toFixed(2)}× |`,
    );
    log(
      `| batch of ${throughputItems}, POST → completed (ZIP, batch.completed) | ${f(batch.completedMs / 1000, 1)} | ${f(throughputItems / (batch.completedMs / 1000), 1)} | ${(throughputItems / (batch.completedMs / 1000) / directRate).toFixed(2)}× |`,
    );
    log(
      `Batch POST (${throughputItems} invoice items) answered in ${f(batch.postMs)} ms. ` +
        `Failed renders: POST /v1/pdf ${failures.direct}; batch items not succeeded ${batch.summary.failed}.`,
    );
    log();

    // Tiny documents so 10,000 renders fit in a few minutes; what is measured is memory over many items.
    const tiny = await createTemplate(quire, 'Tiny', '<p>Item {{ n }} for {{ name }}</p>', {
      n: 0,
      name: 'x',
    });
    results.creation = await creationBench(quire, tiny, log);
    const big = await runBatch(
      quire,
      tiny,
      bigItems,
      (i) => ({ data: { n: i, name: `Customer ${i}` } }),
      500,
    );
    results.bigBatch = { items: bigItems, ...big.summary };
    const growth = (big.rss.lastItem.tree / big.rss.firstItem.tree - 1) * 100;
    const nodeGrowth = (big.rss.lastItem.node / big.rss.firstItem.node - 1) * 100;
    log(`| ${bigItems}-item batch (tiny template, test) | Quire + Chromium RSS MB | Quire (Node) RSS MB |`);
    log('|---|---|---|');
    log(`| first item done | ${f(big.rss.firstItem.tree)} | ${f(big.rss.firstItem.node)} |`);
    log(`| last item done | ${f(big.rss.lastItem.tree)} | ${f(big.rss.lastItem.node)} |`);
    log(`| peak while rendering | ${f(big.rss.peakRendering.tree)} | ${f(big.rss.peakRendering.node)} |`);
    log(`| peak while the ZIP is built | ${f(big.rss.peakZip.tree)} | ${f(big.rss.peakZip.node)} |`);
    log(
      `RSS first → last item: ${f(growth, 1)} % (Quire + Chromium), ${f(nodeGrowth, 1)} % (Node). ` +
        `Batch POST (${bigItems} items, creation) answered in ${f(big.postMs)} ms; ` +
        `items done in ${f(big.itemsDoneMs / 1000, 1)} s (${f(bigItems / (big.itemsDoneMs / 1000), 1)} docs/s), ` +
        `ZIP and completion ${f((big.completedMs - big.itemsDoneMs) / 1000, 1)} s more.`,
    );
    log();

    results.xlsx = await xlsxBench(quire, log);
    return results;
  } finally {
    await quire.close();
  }
}

interface RssPoint {
  tree: number;
  node: number;
}

/** POSTs a test-mode batch and follows it to completion, sampling the server's RSS at every poll. */
async function runBatch(
  quire: QuireProcess,
  templateId: string,
  count: number,
  item: (i: number) => Record<string, unknown>,
  pollMs: number,
) {
  const pid = quire.child.pid ?? 0;
  const rssNow = (): RssPoint => ({ tree: treeRssMb(pid), node: processRssMb(pid) });
  const items = Array.from({ length: count }, (_, i) => item(i));
  const t0 = performance.now();
  const created = (await postJson(
    quire,
    '/v1/batches',
    { template_id: templateId, items, test: true },
    202,
  )) as BatchJson;
  const postMs = performance.now() - t0;
  let firstItem: RssPoint | null = null;
  let lastItem: RssPoint | null = null;
  let itemsDoneMs = 0;
  const peakRendering: RssPoint = { tree: 0, node: 0 };
  const peakZip: RssPoint = { tree: 0, node: 0 };
  const peak = (into: RssPoint, at: RssPoint) => {
    into.tree = Math.max(into.tree, at.tree);
    into.node = Math.max(into.node, at.node);
  };
  let failed = 0;
  for (;;) {
    const rss = rssNow();
    const batch = (await getJson(quire, `/v1/batches/${created.id}`)) as BatchJson;
    // Done = no longer queued or rendering. Not succeeded + failed: an item that fails before rendering
    // is abandoned, and the lifecycle removes its document row, so it drops out of every count.
    const open = batch.counts.queued + batch.counts.processing;
    if (open < count && firstItem === null) firstItem = rss;
    if (open > 0) peak(peakRendering, rss);
    else {
      if (lastItem === null) {
        lastItem = rss;
        itemsDoneMs = performance.now() - t0;
      }
      peak(peakZip, rss);
    }
    failed = count - batch.counts.succeeded;
    if (batch.completed_at !== null) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const completedMs = performance.now() - t0;
  const rss = { firstItem: firstItem ?? rssNow(), lastItem: lastItem ?? rssNow(), peakRendering, peakZip };
  if (failed > 0) console.warn(`batch ${created.id}: ${failed} of ${count} items did not succeed`);
  return {
    postMs,
    itemsDoneMs,
    completedMs,
    rss,
    summary: { postMs, itemsDoneMs, completedMs, failed, rss },
  };
}

/**
 * Batch creation alone: POST /v1/batches with 10,000 tiny items (every document and render job written in
 * one transaction), then canceled so the renders do not run.
 */
async function creationBench(quire: QuireProcess, templateId: string, log: (line?: string) => void) {
  const items = Array.from({ length: CREATION_ITEMS }, (_, i) => ({ data: { n: i, name: `Customer ${i}` } }));
  const post = await timed(
    () =>
      postJson(
        quire,
        '/v1/batches',
        { template_id: templateId, items, test: true },
        202,
      ) as Promise<BatchJson>,
  );
  const cancel = await timed(() => postJson(quire, `/v1/batches/${post.value.id}/cancel`, {}));
  log(
    `Batch creation: POST /v1/batches with ${CREATION_ITEMS} items answered 202 in ${post.ms.toFixed(0)} ms ` +
      `(then canceled in ${cancel.ms.toFixed(0)} ms).`,
  );
  log();
  return { items: CREATION_ITEMS, postMs: post.ms, cancelMs: cancel.ms };
}

/** A 10,000 × 20 workbook of text, numbers and dates, parsed through the API and directly. */
async function xlsxBench(quire: QuireProcess, log: (line?: string) => void) {
  const header = Array.from({ length: XLSX_COLUMNS }, (_, c) => `Column ${c + 1}`);
  const rows: XlsxCell[][] = [header];
  for (let r = 0; r < XLSX_ROWS; r++) {
    rows.push(
      Array.from({ length: XLSX_COLUMNS }, (_, c): XlsxCell => {
        if (c % 4 === 1) return r * 1.25 + c;
        if (c % 4 === 2) return new Date(Date.UTC(2026, r % 12, (r % 28) + 1));
        return `Row ${r} cell ${c} text`;
      }),
    );
  }
  const xlsx = await makeXlsx(rows);
  const pid = quire.child.pid ?? 0;

  // Through the API, three times: the server's own RSS sampled during the first (cold) request.
  const before = processRssMb(pid);
  let peakApi = before;
  const sampler = setInterval(() => {
    peakApi = Math.max(peakApi, processRssMb(pid));
  }, 20);
  const apiMs: number[] = [];
  for (let run = 0; run < PARSE_RUNS; run++) {
    const call = await timed(() =>
      postJson(quire, '/v1/spreadsheets/parse', {
        filename: 'rows.xlsx',
        content_base64: xlsx.toString('base64'),
      }),
    );
    if (run === 0) clearInterval(sampler);
    apiMs.push(call.ms);
    const parsed = call.value as { row_count: number; columns: string[] };
    if (parsed.row_count !== XLSX_ROWS || parsed.columns.length !== XLSX_COLUMNS)
      throw new Error(`spreadsheets/parse read ${parsed.row_count} × ${parsed.columns.length}`);
  }

  // Directly, in this process, three times: RSS before and after the first, and its peak RSS growth.
  const rss0 = process.memoryUsage().rss;
  const maxRss0 = process.resourceUsage().maxRSS;
  const directMs: number[] = [];
  let rss1 = 0;
  let maxRss1 = 0;
  for (let run = 0; run < PARSE_RUNS; run++) {
    directMs.push((await timed(() => readSpreadsheet(xlsx, XLSX_ROWS))).ms);
    if (run === 0) {
      rss1 = process.memoryUsage().rss;
      maxRss1 = process.resourceUsage().maxRSS;
    }
  }
  const mb = (bytes: number) => bytes / (1024 * 1024);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const result = {
    fileBytes: xlsx.length,
    apiMs,
    apiServerRssDeltaMb: peakApi - before,
    directMs,
    directRssDeltaMb: mb(rss1 - rss0),
    directPeakRssGrowthMb: (maxRss1 - maxRss0) / 1024,
  };
  log(
    `| ${XLSX_ROWS} × ${XLSX_COLUMNS} XLSX (${(xlsx.length / 1024).toFixed(0)} KB) | first ms | median of ${PARSE_RUNS} ms | RSS growth MB (first run) |`,
  );
  log('|---|---|---|---|');
  log(
    `| POST /v1/spreadsheets/parse (server RSS peak − before) | ${(apiMs[0] ?? 0).toFixed(0)} | ${median(apiMs).toFixed(0)} | ${result.apiServerRssDeltaMb.toFixed(0)} |`,
  );
  log(
    `| readSpreadsheet directly (peak RSS growth; after − before) | ${(directMs[0] ?? 0).toFixed(0)} | ${median(directMs).toFixed(0)} | ${result.directPeakRssGrowthMb.toFixed(0)}; ${result.directRssDeltaMb.toFixed(0)} |`,
  );
  return result;
}

/** Counts a failed render instead of ending the run. */
function tolerant(once: () => Promise<unknown>, failures: { direct: number }): () => Promise<void> {
  return async () => {
    try {
      await once();
    } catch (err) {
      failures.direct += 1;
      if (failures.direct <= 3) console.warn(String(err));
    }
  };
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await run();
  return { ms: performance.now() - t0, value };
}

async function createTemplate(
  quire: QuireProcess,
  name: string,
  html: string,
  sampleData: Record<string, unknown>,
): Promise<string> {
  const created = (await postJson(
    quire,
    '/v1/templates',
    { name, html, sample_data: sampleData, settings: { mode: 'fast' } },
    201,
  )) as { id: string };
  return created.id;
}

async function request(quire: QuireProcess, method: string, route: string, body?: unknown) {
  return fetch(`${quire.base}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${quire.liveKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function postJson(quire: QuireProcess, route: string, body: unknown, status = 200): Promise<unknown> {
  const response = await request(quire, 'POST', route, body);
  const text = await response.text();
  if (response.status !== status)
    throw new Error(`POST ${route} → ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

async function getJson(quire: QuireProcess, route: string): Promise<unknown> {
  const response = await request(quire, 'GET', route);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${route} → ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}
