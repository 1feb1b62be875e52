import assert from 'node:assert/strict';
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
