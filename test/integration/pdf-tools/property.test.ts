import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { cutShort, flipBytes, type Rng, randomJson, rng } from '../../helpers/random.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';
import { formPdf } from './helpers.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 50);
const RUNS = Number(process.env.QUIRE_PDF_TOOLS_PROPERTY_RUNS ?? 60);

/** Every refusal a PDF tools body may get, with its status (spec: error table). */
const ALLOWED: Record<string, number> = {
  invalid_request: 400,
  document_not_found: 404,
  file_expired: 410,
  document_too_large: 413,
  payload_too_large: 413,
};

function mutated(r: Rng, pdf: Buffer): Buffer {
  const kind = r.int(4);
  if (kind === 0) return cutShort(r, pdf);
  if (kind === 1) return pdf.subarray(r.int(64));
  return flipBytes(r, pdf, 20);
}

function randomSource(r: Rng, pdf: Buffer, ids: string[]): unknown {
  const kind = r.int(10);
  if (kind === 0) return randomJson(r, 1, ['document_id', 'pdf_base64']);
  if (kind <= 2) return { document_id: r.pick([...ids, '00000000-0000-4000-8000-000000000000', 'x']) };
  if (kind === 3) return { pdf_base64: r.pick(['', '***', 'aGk=', '====']) };
  if (kind <= 5) return { pdf_base64: mutated(r, pdf).toString('base64') };
  return { pdf_base64: pdf.toString('base64') };
}

const SELECTIONS = ['1', '1-2', '2-', 'last', '3,1', '0', '9', '1-last', 'x', '', '2-1', ' 1 , 2 '];

function randomStep(r: Rng, pdf: Buffer): unknown {
  switch (r.int(12)) {
    case 0:
      return { op: 'pages', select: r.pick(SELECTIONS) };
    case 1:
      return { op: 'rotate', pages: r.pick(['all', ...SELECTIONS]), degrees: r.pick([90, 180, 270, 45]) };
    case 2:
      return {
        op: 'merge',
        append: [{ pdf_base64: (r.next() < 0.5 ? pdf : mutated(r, pdf)).toString('base64') }],
      };
    case 3:
      return {
        op: 'fill',
        fields: r.pick([{ 'applicant.name': 'Ada' }, { agree: 'yes' }, { size: 'huge' }, {}]),
      };
    case 4:
      return { op: 'flatten' };
    case 5:
      return { op: 'stamp', text: r.pick(['DRAFT', '', 'x'.repeat(300)]) };
    case 6:
      return { op: 'metadata', title: r.pick(['T', '']) };
    case 7:
      return { op: 'pdf_a', level: r.pick(['2b', '3u', '1b']) };
    case 8:
      return { op: 'protect', owner_password: r.pick(['o', '']) };
    case 9:
      return { op: 'sign', certificate_id: 'cert_unknown' };
    case 10:
      return { op: r.pick(['ocr', 'redact', '']) };
    default:
      return randomJson(r, 1, ['op', 'select', 'pages']);
  }
}

function randomBody(r: Rng, route: string, pdf: Buffer, ids: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = { source: randomSource(r, pdf, ids) };
  if (r.next() < 0.15) body.password = r.pick(['', 'pw', 'x'.repeat(200)]);
  if (route === 'inspect' && r.next() < 0.5) body.text = r.pick([true, false, 'yes']);
  if (route === 'transform')
    body.steps = Array.from({ length: r.pick([0, 1, 1, 2, 3, 21]) }, () => randomStep(r, pdf));
  if (route === 'split') {
    if (r.next() < 0.6) body.ranges = Array.from({ length: r.pick([0, 1, 2]) }, () => r.pick(SELECTIONS));
    if (r.next() < 0.5) body.every = r.pick([1, 2, 0, -1, 1.5]);
  }
  return body;
}

/** Property: PDF tools bodies get an answer or a documented refusal with a message — never a 5xx or a hang. */
describe('property: POST /v1/pdf/inspect, /transform and /split', () => {
  let server: TestServer;
  let team: TestTeam;
  let pdf: Buffer;
  const ids: string[] = [];
  serverWithTeam('scale', (both) => ({ server, team } = both), { testKeyRatePerMin: 1000 });
  before(async () => {
    pdf = await formPdf();
    const made = await api(server.base, 'POST', '/v1/pdf', {
      key: team.test,
      body: { html: '<p>source</p>', response: 'url' },
    });
    assert.equal(made.status, 200, made.text);
    ids.push(made.json.id as string);
  });

  it(`answers ${RUNS} random bodies (seed ${SEED}) with a result or a documented refusal`, async () => {
    const r = rng(SEED);
    const seen = new Set<number>();
    for (let i = 0; i < RUNS; i++) {
      const route = r.pick(['inspect', 'transform', 'split']);
      const body = randomBody(r, route, pdf, ids);
      const res = await api(server.base, 'POST', `/v1/pdf/${route}`, { key: team.test, body });
      const shown = JSON.stringify(body, (k, v) =>
        k === 'pdf_base64' && typeof v === 'string' ? `${v.length} chars` : v,
      );
      const what = `#${i} ${route} ${shown.slice(0, 600)} → ${res.status} ${res.text.slice(0, 300)}`;
      seen.add(res.status);
      if (res.status === 200) continue;
      const error = res.json?.error as { code: string; message: string } | undefined;
      assert.ok(error, what);
      assert.equal(ALLOWED[error.code], res.status, what);
      assert.ok(error.message.length > 10, what);
    }
    assert.ok(seen.has(200) && seen.has(400), `statuses seen: ${[...seen].join(', ')}`);
  });
});
