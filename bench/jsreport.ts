/**
 * jsreport 4 as a contender: its own install under bench/jsreport (installed on first use by
 * bench/jsreport/setup.mjs, never a dependency of Quire), started as its own process (bench/jsreport/server.cjs:
 * HTTP API, file-system template store, handlebars, chrome-pdf on the same Debian Chromium with the same
 * Chromium flags as Quire). Renders stored templates over loopback HTTP, as Quire is measured.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumArgs } from '../src/render/browser-supervisor.js';
// @ts-expect-error: plain JavaScript module of the bench's own install step, without types.
import { installJsreport } from './jsreport/setup.mjs';

export interface JsreportProcess {
  child: ChildProcess;
  base: string;
  /** performance.now() of the spawn, for start to first PDF. */
  spawnedAt: number;
  startToReadyMs: number;
  /** One PDF of a stored template (`invoice`, `report`, `document`); throws unless it is a PDF. */
  render(template: string, data?: unknown): Promise<Buffer>;
  close(): Promise<void>;
}

/** A free loopback port: jsreport's express extension needs a number, not 0. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startJsreport(options: {
  root: string;
  chromiumPath: string;
  fixtures: string;
  workers?: number;
}): Promise<JsreportProcess> {
  (installJsreport as () => void)();
  const dir = path.join(options.root, 'bench', 'jsreport');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-bench-jsreport-'));
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(dir, 'server.cjs')], {
    cwd: dir,
    env: {
      ...process.env,
      JSREPORT_PORT: String(port),
      JSREPORT_DATA_DIR: dataDir,
      JSREPORT_CHROMIUM: options.chromiumPath,
      JSREPORT_CHROMIUM_ARGS: JSON.stringify(chromiumArgs(false)),
      JSREPORT_FIXTURES: options.fixtures,
      JSREPORT_WORKERS: String(options.workers ?? 4),
      // QUIRE_BENCH_JSREPORT_TRUSTED=1: jsreport without its helper sandbox (`trustUserCode`), its fastest mode.
      JSREPORT_TRUST_USER_CODE: process.env.QUIRE_BENCH_JSREPORT_TRUSTED === '1' ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`jsreport did not start:\n${out}`)), 120_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('jsreport ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`jsreport exited ${code} before it was ready:\n${out}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    child,
    base,
    spawnedAt: t0,
    startToReadyMs: performance.now() - t0,
    async render(template, data) {
      const response = await fetch(`${base}/api/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ template: { name: template }, ...(data ? { data } : {}) }),
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200 || bytes.subarray(0, 5).toString() !== '%PDF-')
        throw new Error(`jsreport ${template} → ${response.status}: ${bytes.toString().slice(0, 300)}`);
      return bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dataDir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}
