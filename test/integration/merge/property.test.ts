import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { cutShort, flipBytes, type Rng, randomJson } from '../../helpers/random.js';
import {
  api,
  pdfBodiesProperty,
  serverWithTeam,
  type TestServer,
  type TestTeam,
} from '../../helpers/server.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 27);
const RUNS = Number(process.env.QUIRE_MERGE_PROPERTY_RUNS ?? 40);

/** Every answer a merge body may get, with its status (spec: error table). */
const ALLOWED: Record<string, number> = {
  invalid_request: 400,
  document_not_found: 404,
  file_expired: 410,
  document_too_large: 413,
  payload_too_large: 413,
  // pdf_a over merged pages that cannot be made PDF/A (e.g. a damaged file qpdf repaired): the problems named.
  render_failed: 422,
};

/** A valid PDF cut short, without its first bytes, or with a few bytes changed (qpdf repairs some, refuses others). */
function mutated(r: Rng, pdf: Buffer): Buffer {
  const kind = r.int(4);
  if (kind === 0) return cutShort(r, pdf);
  if (kind === 1) return pdf.subarray(r.int(64));
  return flipBytes(r, pdf, 20);
}

function randomSource(r: Rng, pdf: Buffer, ids: string[]): unknown {
  const kind = r.int(10);
  if (kind === 0) return randomJson(r, 1, ['document_id', 'pdf_base64']);
  if (kind <= 2) return { document_id: r.pick([...ids, '00000000-0000-4000-8000-000000000000', 'x', '']) };
  if (kind === 3) return { pdf_base64: r.pick(['', '***', 'aGk=', '====', randomJson(r, 2)]) };
  if (kind === 4) return { document_id: r.pick(ids), pdf_base64: pdf.toString('base64') };
  if (kind <= 6) return { pdf_base64: mutated(r, pdf).toString('base64') };
  return { pdf_base64: pdf.toString('base64') };
}

function randomBody(r: Rng, pdf: Buffer, ids: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = { html: '<p>body</p>' };
  for (const field of ['prepend', 'append']) {
    if (r.next() < 0.6) continue;
    body[field] =
      r.next() < 0.1
        ? randomJson(r, 1)
        : Array.from({ length: r.pick([0, 1, 1, 2, 3, 11]) }, () => randomSource(r, pdf, ids));
  }
  if (r.next() < 0.15) body.pdf_ua = true;
  if (r.next() < 0.15) body.pdf_a = '3b';
  if (r.next() < 0.1) body.async = true;
  return body;
}

/** Property: merge bodies get a PDF or a documented refusal with a message — never a 5xx or a hang. */
describe('property: POST /v1/pdf with prepend and append', () => {
  let server: TestServer;
  let team: TestTeam;
  let pdf: Buffer;
  const ids: string[] = [];
  serverWithTeam('scale', (both) => ({ server, team } = both));
  before(async () => {
    const made = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { html: '<p>source</p>', response: 'url' },
    });
    assert.equal(made.status, 200, made.text);
    ids.push(made.json.id as string);
    const other = await server.team('scale');
    const theirs = await api(server.base, 'POST', '/v1/pdf', {
      key: other.live,
      body: { html: '<p>theirs</p>', response: 'url' },
    });
    ids.push(theirs.json.id as string);
    pdf = Buffer.from(await (await fetch(made.json.url as string)).arrayBuffer());
  });

  it(`answers ${RUNS} random bodies (seed ${SEED}) with a PDF or a documented refusal`, () => {
    const randomMergeBody = (r: Rng) => randomBody(r, pdf, ids);
    return pdfBodiesProperty(
      server,
      team.live,
      { seed: SEED, runs: RUNS, randomBody: randomMergeBody },
      (res, _body, what) => {
        if (res.status === 202) return;
        const error = res.json?.error as { code: string; message: string } | undefined;
        assert.ok(error, what);
        assert.equal(ALLOWED[error.code], res.status, what);
        assert.ok(error.message.length > 10, what);
      },
    );
  });
});
