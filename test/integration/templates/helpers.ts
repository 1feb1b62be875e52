import assert from 'node:assert/strict';
import { before, beforeEach, it } from 'node:test';
import { ManualClock } from '../../../src/shared/clock.js';
import { type Rng, rng } from '../../helpers/random.js';
import { type ApiResponse, api, serverWithTeam, type TestServer } from '../../helpers/server.js';

export const INVOICE = {
  name: 'Invoice 2026',
  html: '<h1>Invoice {{ number }}</h1><p>{{ customer.name }}</p>',
  css: 'h1 { color: #123456; }',
  sample_data: { number: 'S-1', customer: { name: 'Sample Customer' } },
  settings: { mode: 'fast', format: 'A5' },
};

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** What a templates suite's tests use: the server and its 'scale' team's live (`key`) and test keys. */
export interface TemplateSuite {
  server: TestServer;
  key: string;
  testKey: string;
}

/**
 * One server for the describe block it is called in, on a manual clock that moves a minute on before each
 * test so that every test starts with fresh per-minute limits (requests, previews, template changes).
 * `use` receives the server and keys once they exist (in `before`); returns the clock.
 */
export function templateSuite(
  use: (suite: TemplateSuite) => void,
  options: { warmRenderer?: boolean } = {},
): ManualClock {
  const clock = new ManualClock();
  serverWithTeam(
    'scale',
    ({ server, team }) => use({ server, key: team.live, testKey: team.test }),
    {},
    { clock, ...options },
  );
  beforeEach(() => clock.advance(61_000));
  return clock;
}

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

/** A draft whose Liquid breaks on its line 2: 422 template_render_error naming that line. Returns the response. */
export function assertLiquidErrorOnLine2(res: ApiResponse): ApiResponse {
  assertError(res, 422, 'template_render_error');
  assert.equal(res.json.error.details.line, 2, res.text);
  return res;
}

export function createTemplate(base: string, key: string, body: Record<string, unknown> = INVOICE) {
  return ok(base, 'POST', '/v1/templates', key, body, 201);
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** A page image as draft-preview/pages answers it. */
export interface PageJson {
  page: number;
  width: number;
  height: number;
  png_base64: string;
}

type DraftRoute = 'draft-preview' | 'draft-preview/pages';

/** What each draft route answers with a 200, and how a test checks it (`what` names body and answer). */
const RENDERED: Record<
  DraftRoute,
  { renders: string; check(res: ApiResponse, body: unknown, what: string): void }
> = {
  'draft-preview': {
    renders: 'a PDF',
    check(res, _body, what) {
      assert.equal(res.headers.get('content-type'), 'application/pdf', what);
      assert.equal(res.buffer.subarray(0, 5).toString('latin1'), '%PDF-', what);
    },
  },
  'draft-preview/pages': {
    renders: 'images',
    check(res, body, what) {
      const width = (body as { image_width?: number }).image_width ?? 1000;
      assert.ok(res.json.pages.length >= 1 && res.json.pages.length <= 10, what);
      assert.equal(res.json.pages.length, Math.min(10, res.json.page_count), what);
      for (const p of res.json.pages as PageJson[]) {
        assert.equal(pngSize(Buffer.from(p.png_base64, 'base64')).width, width, what);
      }
    },
  },
};

/**
 * The draft preview property of `route` (under /v1/templates/<id>/), in the describe block it is called in:
 * `runs` random bodies (`randomBody`, from `seed`) to one template get a rendering, 422 template_render_error
 * or 400 invalid_request with a message, never a 5xx.
 */
export function draftBodiesProperty(
  route: DraftRoute,
  randomBody: (r: Rng) => unknown,
  { seed, runs }: { seed: number; runs: number },
): void {
  let server: TestServer;
  let key: string;
  let id: string;
  const clock = templateSuite((suite) => ({ server, key } = suite));
  before(async () => {
    id = (await createTemplate(server.base, key, { name: 'Prop', html: '<p>{{ who }}</p>' })).id;
  });

  it(`answers ${runs} random bodies (seed ${seed}) with ${RENDERED[route].renders}, invalid_request or template_render_error`, async () => {
    const r = rng(seed);
    let rendered = 0;
    for (let i = 0; i < runs; i++) {
      if (i % 25 === 24) clock.advance(61_000);
      const body = randomBody(r);
      const res = await api(server.base, 'POST', `/v1/templates/${id}/${route}`, { key, body });
      const what = `#${i} ${JSON.stringify(body)?.slice(0, 160)} → ${res.status} ${res.text.slice(0, 200)}`;
      assert.ok(res.status < 500, what);
      if (res.status === 200) {
        rendered++;
        RENDERED[route].check(res, body, what);
      } else if (res.status === 422) {
        assert.equal(res.json.error.code, 'template_render_error', what);
      } else {
        assert.equal(res.status, 400, what);
        assert.equal(res.json.error.code, 'invalid_request', what);
        assert.ok(res.json.error.message.length > 10, what);
      }
    }
    assert.ok(rendered > 0, 'some random bodies rendered');
  });
}
