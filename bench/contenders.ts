import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromiumArgs } from '../src/render/browser-supervisor.js';

/** Baseline: raw playwright-core on warm pages of the same Chromium, each with its own context. */
export class RawChromium {
  private constructor(
    readonly browser: Browser,
    private readonly free: Page[],
  ) {}

  static async start(executablePath: string, pages: number): Promise<RawChromium> {
    const browser = await chromium.launch({ executablePath, args: chromiumArgs(false) });
    const list: Page[] = [];
    for (let i = 0; i < pages; i++) list.push(await (await browser.newContext()).newPage());
    return new RawChromium(browser, list);
  }

  async render(html: string): Promise<Buffer> {
    const page = this.free.pop();
    if (!page) throw new Error('more concurrent renders than baseline pages');
    try {
      await page.setContent(html);
      return await page.pdf({
        format: 'A4',
        margin: { top: '20mm', right: '20mm', bottom: '20mm', left: '20mm' },
        printBackground: true,
        // The same work on both sides: Quire's PDFs are tagged by default (finishing/plan.ts).
        tagged: true,
      });
    } finally {
      this.free.push(page);
    }
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}

export interface QuireProcess {
  child: ChildProcess;
  base: string;
  liveKey: string;
  /** The default team's test key: its documents carry the test watermark. */
  testKey: string;
  /** Its QUIRE_DATA_DIR (SQLite database and blobs, unless `env` named another database). */
  dataDir: string;
  /** performance.now() of the spawn, so a caller can time start to first PDF as one figure. */
  spawnedAt: number;
  startToListenMs: number;
  /** What it wrote on stderr until it served: the start-up announcements, JSON records (no terminal). */
  startupOutput?: string;
  close(): Promise<void>;
}

/**
 * Quire as users run it: `quire serve` in its own process, on the Scale plan with limits raised so the
 * benchmark is not refused; `scale` adds or overrides Scale's settings (e.g. open_jobs for big batches);
 * `extraEnv` adds settings (e.g. QUIRE_DATABASE_URL).
 */
export async function startQuire(
  root: string,
  scale: Record<string, number> = {},
  extraEnv: Record<string, string> = {},
): Promise<QuireProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-bench-'));
  const plansFile = path.join(dataDir, 'plans.json');
  writeFileSync(
    plansFile,
    JSON.stringify({ scale: { rate_limit_per_min: 10_000_000, docs_per_period: 10_000_000, ...scale } }),
  );
  const env = {
    ...process.env,
    QUIRE_DATA_DIR: dataDir,
    QUIRE_PORT: '0',
    QUIRE_LOG_LEVEL: 'warn',
    QUIRE_PLANS_FILE: plansFile,
    QUIRE_IP_RATE_LIMIT: '100000000',
    QUIRE_DEFAULT_PLAN: 'scale',
    ...extraEnv,
  };
  const t0 = performance.now();
  // QUIRE_BENCH_NODE_ARGS: extra Node options for the server, e.g. `--cpu-prof --cpu-prof-dir=DIR`.
  const nodeArgs = process.env.QUIRE_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'bin', 'quire.mjs'), 'serve'], {
    env,
    // The serving line and the first run's keys are announced on stderr (README: Logs); the JSON log is not needed.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let out = '';
  const { base, liveKey, testKey } = await new Promise<{ base: string; liveKey: string; testKey: string }>(
    (resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Quire did not start:\n${out}`)), 60_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const url = /serving (http:\/\/\S+)\/v1/.exec(out)?.[1];
        const key = /Live key: (qk_live_\w+)/.exec(out)?.[1];
        const test = /Test key: (qk_test_\w+)/.exec(out)?.[1];
        if (url && key && test) {
          clearTimeout(timer);
          resolve({ base: url, liveKey: key, testKey: test });
        }
      });
    },
  );
  return {
    child,
    base,
    liveKey,
    testKey,
    dataDir,
    spawnedAt: t0,
    startToListenMs: performance.now() - t0,
    startupOutput: out,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** One POST /v1/pdf with the live key (or `key`), binary response; throws unless it is a PDF. */
export async function postPdf(
  q: QuireProcess,
  body: Record<string, unknown>,
  key = q.liveKey,
): Promise<Buffer> {
  const response = await fetch(`${q.base}/v1/pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200)
    throw new Error(`POST /v1/pdf → ${response.status}: ${bytes.toString().slice(0, 300)}`);
  return bytes;
}
