import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { damagedBytes, noise, type Rng, randomJson, rng } from '../../helpers/random.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 18);
const RUNS = Number(process.env.QUIRE_BRAND_PROPERTY_RUNS ?? 60);
const FONT = readFileSync('/usr/share/fonts/truetype/liberation2/LiberationMono-Italic.ttf');
const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
  'base64',
);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="4"><rect width="8" height="4" fill="#123456"/></svg>',
);
const MAGICS = [
  'wOF2',
  'OTTO',
  '\x00\x01\x00\x00',
  'true',
  'ttcf',
  'wOFF',
  '\x89PNG\r\n\x1a\n',
  '\xff\xd8\xff',
  '<svg',
];

/**
 * File bytes biased towards almost-valid files: real ones damaged (cut, flipped, their first bytes before
 * noise, or pure noise), a known magic before noise, JSON text, or a real file whole.
 */
function randomFile(r: Rng): Buffer {
  const base = r.pick([FONT, PNG_1x1, SVG]);
  switch (r.int(5)) {
    case 0:
    case 1:
      return damagedBytes(r, base, 16);
    case 2:
      return Buffer.concat([Buffer.from(r.pick(MAGICS), 'latin1'), noise(r, 0, 400)]);
    case 3:
      return Buffer.from(JSON.stringify(randomJson(r)) ?? '');
    default:
      return base;
  }
}

function randomBody(r: Rng): unknown {
  if (r.next() < 0.15) return randomJson(r, 0, ['kind', 'name', 'content_base64']);
  const body: Record<string, unknown> = {
    kind: r.next() < 0.9 ? r.pick(['logo', 'font']) : randomJson(r, 2),
    name: r.next() < 0.8 ? r.pick(['Logo', 'Mono', 'a_b', 'x y', '1st', 'é', '']) : randomJson(r, 2),
    content_base64: r.next() < 0.9 ? randomFile(r).toString('base64') : randomJson(r, 2),
  };
  if (r.next() < 0.1) body.extra = randomJson(r, 2);
  return body;
}

/** Property: whatever the upload body, the answer is 201 with a working link or the error object, never 5xx. */
describe('property: POST /v1/brand-assets bodies', () => {
  let server: TestServer;
  let t: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team: t } = both));

  it(`answers ${RUNS} random upload bodies (seed ${SEED}) with 201 or invalid_request, never 5xx`, async () => {
    const r = rng(SEED);
    let created = 0;
    for (let i = 0; i < RUNS; i++) {
      const body = randomBody(r);
      const res = await api(server.base, 'POST', '/v1/brand-assets', { key: t.live, body });
      const what = `#${i} ${JSON.stringify(body).slice(0, 120)}`;
      assert.ok(res.status < 500, `${what} → ${res.status} ${res.text}`);
      if (res.status === 201) {
        created++;
        const file = await fetch(res.json.url);
        assert.equal(file.status, 200, what);
        assert.equal(file.headers.get('content-type'), res.json.content_type, what);
        assert.equal(Number(file.headers.get('content-length')), res.json.bytes, what);
      } else {
        assert.equal(res.status, 400, `${what} → ${res.status} ${res.text}`);
        assert.equal(res.json.error.code, 'invalid_request', what);
        assert.ok(res.json.error.message.length > 10, what);
      }
    }
    assert.ok(created > 0, 'some random bodies were valid uploads');
  });
});
