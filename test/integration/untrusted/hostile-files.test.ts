import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { pdfWithPageInObjectStream } from '../../helpers/pdf-filters.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';
import { woff2Of } from '../../helpers/woff2.js';
import { xlsxParts } from '../../helpers/xlsx.js';
import { craftZip, deflatedEntry, deflatedRepeat } from '../../helpers/zip-craft.js';
import { createTemplate } from '../batches/helpers.js';

/**
 * One hostile file per format, each refused with invalid_request naming the field and
 * the limit, while another team's GET /v1/me keeps answering about as fast as when idle and the
 * server process (the test's own: the server runs in it, with its worker threads) grows by little.
 * Latency is compared with an idle baseline measured in the same test, with a generous margin, so a
 * loaded machine does not fail it (and a slow first measurement is repeated, see `upload`); the ~100 ms
 * target is for the benchmark.
 */
const LATENCY_MARGIN_MS = 300;
const RSS_GROWTH_MAX_MB = 200;
/**
 * Probes of the bystander's latency during an upload: a burst, then start to start PROBE_INTERVAL_MS, so a series
 * stays under the plan's 600 requests a minute (30 + 8 a second) with the idle baselines (30 each).
 */
const PROBE_BURST = 30;
const PROBE_INTERVAL_MS = 125;
const MB = 1024 * 1024;

const TTF = readFileSync('/usr/share/fonts/truetype/liberation2/LiberationMono-Italic.ttf');

function p95(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
}

/** A billion-laughs SVG: `levels` groups of `fan` <use>s of the group below (10^9 shapes from ~2 KB). */
function useFanOutSvg(levels: number, fan: number): string {
  let defs = '<rect id="l0" width="1" height="1"/>';
  for (let i = 1; i <= levels; i++)
    defs += `<g id="l${i}">${Array.from({ length: fan }, () => `<use href="#l${i - 1}"/>`).join('')}</g>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs>${defs}</defs><use href="#l${levels}"/></svg>`;
}

/** The workbook's parts, deflated honestly, with its first sheet replaced. */
function workbookWith(sheet: Parameters<typeof craftZip>[0][number]): Buffer {
  const parts = Object.entries(xlsxParts([['a'], [1]]))
    .filter(([name]) => name !== 'xl/worksheets/sheet1.xml')
    .map(([name, xml]) => deflatedEntry(name, xml));
  return craftZip([...parts, sheet]);
}

interface Measured {
  status: number;
  json: { error?: { code: string; message: string; details?: Record<string, unknown> } };
  latencyP95: number;
  rssGrowthMb: number;
}

describe('hostile files: refused on a budget, without delaying other teams', () => {
  let server: TestServer;
  let uploader: TestTeam;
  let bystander: TestTeam;
  let templateId: string;
  let idleP95: number;

  /** Sequential GET /v1/me of the other team, ms each. */
  async function meLatencies(count: number): Promise<number[]> {
    const samples: number[] = [];
    for (let i = 0; i < count; i++) samples.push(await timedMe());
    return samples;
  }

  async function timedMe(): Promise<number> {
    const started = performance.now();
    const r = await api(server.base, 'GET', '/v1/me', { key: bystander.live });
    assert.equal(r.status, 200, r.text);
    return performance.now() - started;
  }

  /**
   * Sends `body` (already JSON) while measuring the other team's latency and this process's RSS. Other test
   * processes share the machine, and a burst of theirs slows every request for a while: when the latency is
   * over the margin, the idle baseline is taken again and the upload measured once more. An upload that holds
   * the server's thread is slow both times.
   */
  async function upload(path: string, body: string): Promise<Measured> {
    const first = await measureUpload(path, body);
    if (first.latencyP95 < idleP95 + LATENCY_MARGIN_MS) return first;
    idleP95 = p95(await meLatencies(30));
    return measureUpload(path, body);
  }

  async function measureUpload(path: string, body: string): Promise<Measured> {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 10);
    const latencies: number[] = [];
    let done = false;
    const sent = api(server.base, 'POST', path, {
      key: uploader.live,
      rawBody: body,
      headers: { 'content-type': 'application/json' },
    }).finally(() => {
      done = true;
    });
    try {
      // At least 10 samples, and samples for as long as the upload is in flight: the first PROBE_BURST 10 ms
      // apart (a p95 of 10 samples is their slowest, so one stall of a loaded machine failed a short upload),
      // then each started PROBE_INTERVAL_MS after the last. Back to back all the way, they spent the
      // bystander's 600 requests a minute within 12 s of a slow upload.
      while (!done || latencies.length < 10) {
        const started = performance.now();
        latencies.push(await timedMe());
        const gap = latencies.length < PROBE_BURST ? 10 : PROBE_INTERVAL_MS;
        const wait = gap - (performance.now() - started);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } finally {
      clearInterval(sampler);
    }
    const response = await sent;
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    const measured = {
      status: response.status,
      json: response.json as Measured['json'],
      latencyP95: p95(latencies),
      rssGrowthMb: (rssPeak - rssBefore) / MB,
    };
    // For the figures in docs/security.md (Files clients upload): what this machine showed, not what is asserted.
    console.log(
      `# ${path}: GET /v1/me p95 ${measured.latencyP95.toFixed(0)} ms during (${latencies.length} samples) vs ${idleP95.toFixed(0)} ms idle; RSS +${measured.rssGrowthMb.toFixed(0)} MB`,
    );
    return measured;
  }

  function assertRefused(m: Measured, field: string, message: RegExp): void {
    assert.equal(m.status, 400, JSON.stringify(m.json));
    assert.equal(m.json.error?.code, 'invalid_request');
    assert.equal(m.json.error?.details?.field, field);
    assert.match(m.json.error?.message ?? '', message);
    assert.ok(
      m.latencyP95 < idleP95 + LATENCY_MARGIN_MS,
      `GET /v1/me p95 ${m.latencyP95.toFixed(0)} ms during the upload vs ${idleP95.toFixed(0)} ms idle`,
    );
    assert.ok(m.rssGrowthMb < RSS_GROWTH_MAX_MB, `RSS grew ${m.rssGrowthMb.toFixed(0)} MB`);
  }

  const parseBody = (bytes: Buffer) =>
    JSON.stringify({ filename: 'f.xlsx', content_base64: bytes.toString('base64') });
  const brandBody = (kind: 'logo' | 'font', bytes: Buffer) =>
    JSON.stringify({
      kind,
      name: kind === 'logo' ? 'Logo' : 'Mono',
      content_base64: bytes.toString('base64'),
    });

  before(async () => {
    // Every upload is timed against another team's probes, all from 127.0.0.1: more than the 600 a minute
    // an address may send when the machine is slow. The per-address limit is not what this test is about.
    // qpdf reading the 400 MB object stream below takes seconds, and beside other work (a CPU hog, two other
    // suites) it went past the product's 15 s: the budget would then measure the machine, not the file. The
    // budget itself is tested in pdf-tools.test.ts.
    server = await startTestServer({ ipRateLimitPerMin: 100_000, pdfToolTimeoutMs: 120_000 });
    uploader = await server.team('growth');
    // Scale: 600 requests a minute, room for the samples of every case.
    bystander = await server.team('scale');
    templateId = await createTemplate(server.base, uploader.live);
    // Warm the path (first requests compile routes and schemas), then take the idle baseline.
    await meLatencies(10);
    idleP95 = p95(await meLatencies(30));
  });
  after(async () => {
    await server.close();
  });

  it('XLSX: a part whose honest headers declare 300 MB is refused before anything is inflated', async () => {
    const { data, crc } = await deflatedRepeat(0x20, 300 * MB);
    const file = workbookWith({ name: 'xl/worksheets/sheet1.xml', data, method: 8, crc, size: 300 * MB });
    assert.ok(file.length < 400 * 1024, `${file.length} bytes`);
    const m = await upload('/v1/spreadsheets/parse', parseBody(file));
    assertRefused(m, 'content_base64', /unpacks to more than 64 MB/);
    assert.equal(m.json.error?.details?.limit, 'xlsx_unpacked_bytes');
  });

  it('XLSX: a part that inflates far past the 1 KB both its headers declare stops one byte past it', async () => {
    const { data, crc } = await deflatedRepeat(0x20, 300 * MB);
    const file = workbookWith({ name: 'xl/worksheets/sheet1.xml', data, method: 8, crc, size: 1024 });
    const m = await upload('/v1/spreadsheets/parse', parseBody(file));
    assertRefused(m, 'content_base64', /inflates to more than the 1024 bytes its headers declare/);
  });

  it('XLSX: local headers that disagree with the central directory about sizes are refused', async () => {
    // The directory says 1 KB (what a directory-only check sees); the local header, which a streaming
    // unzipper trusts, says 300 MB, which is what the data inflates to.
    const { data, crc } = await deflatedRepeat(0x20, 300 * MB);
    const file = workbookWith({
      name: 'xl/worksheets/sheet1.xml',
      data,
      method: 8,
      crc,
      size: 1024,
      local: { size: 300 * MB },
    });
    const m = await upload('/v1/spreadsheets/parse', parseBody(file));
    assertRefused(
      m,
      'content_base64',
      /local header of xl\/worksheets\/sheet1\.xml disagrees with the ZIP directory/,
    );
    assert.equal(m.json.error?.details?.limit, 'zip_consistency');
  });

  it('CSV: a 3.5 MB file with far more rows than the plan allows stops at max_rows + 1', async () => {
    const row = 'INV-000001,Customer name,2026-01-01,1234.50\n';
    const csv = `number,customer,due,total\n${row.repeat(Math.ceil((3.5 * MB) / row.length))}`;
    assert.ok(csv.length > 3.5 * MB && csv.length < 3.6 * MB);
    const m = await upload(
      '/v1/batches',
      JSON.stringify({
        template_id: templateId,
        spreadsheet: { filename: 'rows.csv', content_base64: Buffer.from(csv).toString('base64') },
      }),
    );
    assertRefused(m, 'spreadsheet.content_base64', /at least 5001 data rows; at most 5000 are allowed/);
    assert.deepEqual(
      { limit: m.json.error?.details?.limit, max: m.json.error?.details?.max },
      { limit: 'batch_max_items', max: 5000 },
    );
  });

  it('SVG: a <use> fan-out (10^9 shapes from 2 KB) is refused by its expanded size before rasterising', async () => {
    const svg = Buffer.from(useFanOutSvg(9, 10));
    assert.ok(svg.length < 3000);
    const m = await upload('/v1/brand-assets', brandBody('logo', svg));
    assertRefused(m, 'content_base64', /expands to more than 50000 elements/);
    assert.equal(m.json.error?.details?.limit, 'svg_nodes');
  });

  it('WOFF2: a table directory declaring 500 MB, and one declaring less than the data holds, are refused', async () => {
    const huge = woff2Of(TTF, { declaredLength: (tag, real) => (tag === 'glyf' ? 500 * MB : real) });
    const m = await upload('/v1/brand-assets', brandBody('font', huge));
    assertRefused(m, 'content_base64', /tables declare more than 30 MB/);
    assert.equal(m.json.error?.details?.limit, 'woff2_sfnt_bytes');
    // The directory is honest about the tables, but the brotli stream holds 100 MB more.
    const stuffed = woff2Of(TTF, { extraData: Buffer.alloc(100 * MB) });
    assert.ok(stuffed.length < 1 * MB);
    const s = await upload('/v1/brand-assets', brandBody('font', stuffed));
    assertRefused(
      s,
      'content_base64',
      /compressed data holds more than the \d+ bytes its table directory declares/,
    );
    // The same font, honestly encoded, is accepted (the checks do not refuse real fonts).
    const ok = await api(server.base, 'POST', '/v1/brand-assets', {
      key: uploader.live,
      body: { kind: 'font', name: 'Mono', content_base64: woff2Of(TTF).toString('base64') },
    });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.json.family, 'Liberation Mono');
  });

  it('PDF tools: a 400 KB PDF whose object stream inflates to 400 MB is stamped without inflating it here', async () => {
    // pdf-lib reading it on the server's thread took 4.8 s and 600 MB; qpdf now writes it out plainly first,
    // in a process of its own.
    const pdf = pdfWithPageInObjectStream(400 * MB);
    assert.ok(pdf.length < 1 * MB);
    // qpdf takes seconds over it on a loaded machine, and its probes run as long: a bystander with its minute's
    // budget whole.
    bystander = await server.team('scale');
    idleP95 = p95(await meLatencies(30));
    const body = JSON.stringify({
      source: { pdf_base64: pdf.toString('base64') },
      steps: [{ op: 'stamp', text: 'COPY' }],
      response: 'url',
    });
    const m = await upload('/v1/pdf/transform', body);
    assert.equal(m.status, 200, JSON.stringify(m.json));
    assert.equal((m.json as { pages?: number }).pages, 1);
    assert.ok(
      m.latencyP95 < idleP95 + LATENCY_MARGIN_MS,
      `GET /v1/me p95 ${m.latencyP95.toFixed(0)} ms during the transform vs ${idleP95.toFixed(0)} ms idle`,
    );
    assert.ok(m.rssGrowthMb < RSS_GROWTH_MAX_MB, `RSS grew ${m.rssGrowthMb.toFixed(0)} MB`);
  });
});
