/**
 * WeasyPrint as a contender (the usual non-Chromium HTML → PDF engine): Debian's `weasyprint` package, installed
 * on first use by bench/weasyprint/setup.mjs (apt-get; never a dependency of Quire). Renders through
 * bench/weasyprint/server.py, a long-running Python driver that imports weasyprint once and renders one document
 * at a time over loopback HTTP; `drivers` processes give concurrency (WeasyPrint renders on one thread under the
 * GIL, so one process per concurrent render). `weasyprintCli` times Debian's CLI per document for reference
 * (Python's start-up and the import counted every time). Licence: WeasyPrint is BSD-3-Clause.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reapedChildrenCpuMs, treeCpuMs, treePssMb, treeRssMb } from './proc.js';
// @ts-expect-error: plain JavaScript module of the bench's own install step, without types.
import { installWeasyprint, SYSTEM_PYTHON, WEASYPRINT_CLI } from './weasyprint/setup.mjs';

interface Driver {
  child: ChildProcess;
  base: string;
}

export interface WeasyprintPool {
  /** WeasyPrint's version, as its module reports it. */
  version: string;
  /** The driver processes' ids (one Python process each, no children). */
  pids(): number[];
  /** Spawn of the drivers → all ready, ms (Python start-up and `import weasyprint`). */
  startToReadyMs: number;
  /** One PDF of `html` on a free driver; throws unless it is a PDF. */
  render(html: string): Promise<Buffer>;
  /** CPU of every driver so far, ms. */
  cpuMs(): number;
  /** Memory of the drivers together: PSS (shared pages once) and summed RSS, MB. */
  memory(): { rssMb: number; pssMb: number; processes: number };
  close(): Promise<void>;
}

function startDriver(script: string): Promise<Driver & { version: string }> {
  const child = spawn(SYSTEM_PYTHON as string, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`WeasyPrint driver did not start:\n${out}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /weasyprint ready (\d+) (\S+)/.exec(out);
      if (ready) {
        clearTimeout(timer);
        resolve({ child, base: `http://127.0.0.1:${ready[1]}`, version: ready[2] ?? '?' });
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`WeasyPrint driver exited ${code} before it was ready:\n${out}`)),
    );
  });
}

async function post(driver: Driver, html: string): Promise<Buffer> {
  const response = await fetch(`${driver.base}/`, {
    method: 'POST',
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: html,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200 || bytes.subarray(0, 5).toString() !== '%PDF-')
    throw new Error(`WeasyPrint → ${response.status}: ${bytes.toString().slice(0, 300)}`);
  return bytes;
}

function stopDriver(driver: Driver): Promise<void> {
  return new Promise((resolve) => {
    if (driver.child.exitCode !== null || driver.child.signalCode !== null) return resolve();
    driver.child.once('exit', () => resolve());
    driver.child.kill('SIGTERM');
  });
}

/** `drivers` Python processes, each rendering one document at a time. */
export async function startWeasyprint(root: string, drivers: number): Promise<WeasyprintPool> {
  (installWeasyprint as () => void)();
  const script = path.join(root, 'bench', 'weasyprint', 'server.py');
  const t0 = performance.now();
  const started = await Promise.all(Array.from({ length: drivers }, () => startDriver(script)));
  const startToReadyMs = performance.now() - t0;
  const free: Driver[] = [...started];
  const waiting: Array<(driver: Driver) => void> = [];
  const take = () =>
    new Promise<Driver>((resolve) => {
      const driver = free.pop();
      if (driver) resolve(driver);
      else waiting.push(resolve);
    });
  const give = (driver: Driver) => {
    const next = waiting.shift();
    if (next) next(driver);
    else free.push(driver);
  };
  const pids = () => started.map((d) => d.child.pid ?? 0);
  return {
    version: started[0]?.version ?? '?',
    pids,
    startToReadyMs,
    async render(html) {
      const driver = await take();
      try {
        return await post(driver, html);
      } finally {
        give(driver);
      }
    },
    cpuMs: () => pids().reduce((sum, pid) => sum + treeCpuMs(pid), 0),
    memory: () => ({
      rssMb: pids().reduce((sum, pid) => sum + treeRssMb(pid), 0),
      pssMb: pids().reduce((sum, pid) => sum + treePssMb(pid), 0),
      processes: started.length,
    }),
    close: async () => {
      await Promise.all(started.map(stopDriver));
    },
  };
}

export interface CliFigures {
  runs: number[];
  /** Median wall time of `weasyprint in.html out.pdf`, ms. */
  medianMs: number;
  /** CPU of the CLI processes per document (reaped children of this process), ms. */
  cpuMsPerDoc: number;
}

function runCli(input: string, output: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(WEASYPRINT_CLI as string, [input, output], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`weasyprint CLI exited ${code}: ${err}`)),
    );
  });
}

/** Debian's `weasyprint` CLI on `html`, `runs` times one after another: a fresh Python per document. */
export async function weasyprintCli(html: string, runs: number): Promise<CliFigures> {
  (installWeasyprint as () => void)();
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-weasyprint-'));
  try {
    const input = path.join(dir, 'invoice.html');
    writeFileSync(input, html);
    const times: number[] = [];
    const cpu0 = reapedChildrenCpuMs();
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await runCli(input, path.join(dir, `out-${i}.pdf`));
      times.push(performance.now() - t0);
    }
    const cpuMsPerDoc = (reapedChildrenCpuMs() - cpu0) / runs;
    const sorted = [...times].sort((a, b) => a - b);
    return { runs: times, medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, cpuMsPerDoc };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
