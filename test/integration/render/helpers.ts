import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Config, loadConfig } from '../../../src/config/config.js';
import { type PageOptionsInput, Renderer, resolvePageOptions } from '../../../src/render/index.js';
import type { RenderJob } from '../../../src/render/types.js';
import { AppError } from '../../../src/shared/errors.js';
import { SHARED_CHROMIUM } from '../../helpers/chromium.js';

const run = promisify(execFile);

/** A renderer on a temp data dir; `renderTimeoutMs` short so timeout tests stay quick. */
export async function startRenderer(overrides: Partial<Config> = {}): Promise<Renderer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'quire-render-'));
  const config = loadConfig(
    {},
    { dataDir, renderTimeoutMs: 3000, renderPoolSize: 1, ...SHARED_CHROMIUM, ...overrides },
  );
  return Renderer.start(config);
}

export function job(html: string, page: PageOptionsInput = {}, extra: Partial<RenderJob> = {}): RenderJob {
  return { html, page: resolvePageOptions(page), watermark: false, ...extra };
}

/** The AppError a promise rejects with (fails the test when it resolves or throws something else). */
export async function appError(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the render to fail');
}

/** Runs a poppler tool on the PDF written to a temp file. */
async function poppler(tool: string, args: string[], pdf: Buffer): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-pdf-'));
  const file = path.join(dir, 'doc.pdf');
  writeFileSync(file, pdf);
  try {
    const { stdout } = await run(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Page sizes in points as pdfinfo reads them, one per page. */
export async function pageSizes(pdf: Buffer): Promise<Array<{ width: number; height: number }>> {
  const out = await poppler('pdfinfo', ['-f', '1', '-l', '9999'], pdf);
  return [...out.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m) => ({
    width: Number(m[1]),
    height: Number(m[2]),
  }));
}

export async function pageCount(pdf: Buffer): Promise<number> {
  const out = await poppler('pdfinfo', [], pdf);
  return Number(/^Pages:\s+(\d+)/m.exec(out)?.[1]);
}

export async function pdfText(pdf: Buffer): Promise<string> {
  return poppler('pdftotext', ['-layout'], pdf);
}

export interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word with its box in points (origin top-left), from `pdftotext -bbox`. */
export async function words(pdf: Buffer): Promise<Word[]> {
  const out = await poppler('pdftotext', ['-bbox'], pdf);
  const result: Word[] = [];
  let page = 0;
  for (const line of out.split('\n')) {
    if (line.includes('<page ')) page += 1;
    const m = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/.exec(line);
    if (m) {
      const [, xMin, yMin, xMax, yMax, text] = m;
      result.push({
        page,
        text: text ?? '',
        xMin: +(xMin ?? 0),
        yMin: +(yMin ?? 0),
        xMax: +(xMax ?? 0),
        yMax: +(yMax ?? 0),
      });
    }
  }
  return result;
}

/** Rendered pages as raw RGB pixels (pdftoppm's PPM output at a low resolution). */
export async function pagePixels(
  pdf: Buffer,
  dpi = 24,
): Promise<Array<{ width: number; height: number; rgb: Buffer }>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quire-ppm-'));
  const file = path.join(dir, 'doc.pdf');
  writeFileSync(file, pdf);
  try {
    const pages = await pageCount(pdf);
    const result = [];
    for (let p = 1; p <= pages; p++) {
      const { stdout } = await run('pdftoppm', ['-r', String(dpi), '-f', String(p), '-l', String(p), file], {
        encoding: 'buffer',
        maxBuffer: 64 * 1024 * 1024,
      });
      const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(stdout.subarray(0, 40).toString('latin1'));
      assert.ok(header, 'pdftoppm did not write a PPM');
      const width = Number(header[1]);
      const height = Number(header[2]);
      result.push({ width, height, rgb: stdout.subarray(header[0].length) });
    }
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface TestServer {
  origin: string;
  port: number;
  /** Paths requested so far (WebSocket upgrades as "WS <path>"). */
  hits: string[];
  close(): Promise<void>;
}

/** A loopback HTTP server for resource tests; `routes` maps a path to its handler. */
export async function testServer(routes: Record<string, http.RequestListener>): Promise<TestServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname);
    const handler = routes[url.pathname];
    if (handler) return handler(req, res);
    res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`WS ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A 3×2 red PNG. */
export const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGP4z8AAQQxwFgBB0gX7h/C5SAAAAABJRU5ErkJggg==',
  'base64',
);
