import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { type ApiResponse, api } from '../../helpers/server.js';

export const INVOICE = {
  name: 'Invoice 2026',
  html: '<h1>Invoice {{ number }}</h1><p>{{ customer.name }}</p>',
  css: 'h1 { color: #123456; }',
  sample_data: { number: 'S-1', customer: { name: 'Sample Customer' } },
  settings: { mode: 'fast', format: 'A5' },
};

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A JSON call that must succeed with `status`; returns the body. */
export async function ok(
  base: string,
  method: string,
  path: string,
  key: string,
  body?: unknown,
  status = 200,
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
): Promise<any> {
  const res = await api(base, method, path, { key, body });
  assert.equal(res.status, status, `${method} ${path} → ${res.status} ${res.text.slice(0, 300)}`);
  return res.json;
}

/** Asserts the error object's status and code; returns the response. */
export function assertError(res: ApiResponse, status: number, code: string): ApiResponse {
  assert.equal(res.status, status, res.text.slice(0, 300));
  assert.equal(res.json?.error?.code, code, res.text.slice(0, 300));
  return res;
}

export function createTemplate(base: string, key: string, body: Record<string, unknown> = INVOICE) {
  return ok(base, 'POST', '/v1/templates', key, body, 201);
}

/** The PDF's text as poppler's pdftotext reads it (layout kept). */
export function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Page 1 size in points, rounded. */
export function pageSize(pdf: Buffer): { width: number; height: number } {
  const m = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(pdfInfo(pdf));
  assert.ok(m, 'pdfinfo reports a page size');
  return { width: Math.round(Number(m[1])), height: Math.round(Number(m[2])) };
}

/** Text in content-stream order (reads the rotated watermark as words). */
export function pdfRawText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-raw', '-', '-'], { input: pdf }).toString('utf8');
}

export function pdfInfo(pdf: Buffer): string {
  return execFileSync('pdfinfo', ['-'], { input: pdf }).toString('utf8');
}
