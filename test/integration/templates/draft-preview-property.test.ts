import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../../../src/shared/clock.js';
import { type Rng, randomJson, rng } from '../../helpers/random.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { createTemplate } from './helpers.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 23);
const RUNS = Number(process.env.QUIRE_DRAFT_PROPERTY_RUNS ?? 40);

const HTMLS = [
  '<p>{{ who }}</p>',
  '<p>{% if who %}{{ who | upcase }}{% endif %}</p>',
  '<p>{% if %}</p>',
  '<p>{{ who | nosuchfilter }}</p>',
  '{% for i in (1..3) %}<p>{{ i }}</p>{% endfor %}',
  '<p>{{ </p>',
  '',
];
const SETTINGS = [
  { format: 'A4' },
  { format: 'Letter', orientation: 'landscape' },
  { margin: '10mm 5mm' },
  { margin: '40cm' },
  { mode: 'fast' },
  { format: 'B9' },
];

function randomBody(r: Rng): unknown {
  if (r.next() < 0.15) return randomJson(r, 0, ['html', 'css', 'settings', 'data']);
  const body: Record<string, unknown> = {
    html: r.next() < 0.9 ? r.pick(HTMLS) : randomJson(r, 2),
  };
  if (r.next() < 0.5) body.css = r.next() < 0.9 ? r.pick(['p { color: red }', '', '}{']) : randomJson(r, 2);
  if (r.next() < 0.5) body.settings = r.next() < 0.8 ? r.pick(SETTINGS) : randomJson(r, 2);
  if (r.next() < 0.6) body.data = r.next() < 0.7 ? { who: randomJson(r, 2) } : randomJson(r, 2);
  if (r.next() < 0.08) body.version = randomJson(r, 1);
  return body;
}

/** Property: any draft-preview body gets a PDF or the spec's error object (400 or 422), never 5xx. */
describe('property: POST /v1/templates/<id>/draft-preview bodies', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let key: string;
  let id: string;
  before(async () => {
    server = await startTestServer({}, { clock });
    ({ live: key } = await server.team('scale'));
    id = (await createTemplate(server.base, key, { name: 'Prop', html: '<p>{{ who }}</p>' })).id;
  });
  after(async () => server.close());
  // Stays under the previews' rate limit.
  beforeEach(() => clock.advance(61_000));

  it(`answers ${RUNS} random bodies (seed ${SEED}) with a PDF, invalid_request or template_render_error`, async () => {
    const r = rng(SEED);
    let rendered = 0;
    for (let i = 0; i < RUNS; i++) {
      if (i % 25 === 24) clock.advance(61_000);
      const body = randomBody(r);
      const res = await api(server.base, 'POST', `/v1/templates/${id}/draft-preview`, { key, body });
      const what = `#${i} ${JSON.stringify(body)?.slice(0, 160)} → ${res.status} ${res.text.slice(0, 200)}`;
      assert.ok(res.status < 500, what);
      if (res.status === 200) {
        rendered++;
        assert.equal(res.headers.get('content-type'), 'application/pdf', what);
        assert.equal(res.buffer.subarray(0, 5).toString('latin1'), '%PDF-', what);
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
});
