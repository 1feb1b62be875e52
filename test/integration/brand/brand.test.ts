import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { eraseTeam } from '../../../src/cli/team-erase.js';
import { firstPagePng, pdfFonts, pdfText } from '../../helpers/pdf.js';
import {
  api,
  forgeSignature,
  startTestServer,
  type TestServer,
  type TestTeam,
} from '../../helpers/server.js';

/** A TrueType face Chromium would never pick by itself for the test's text (as in the print tests). */
const FONT_FILE = '/usr/share/fonts/truetype/liberation2/LiberationMono-Italic.ttf';

/** A solid PNG of the given colour. */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    png.data[i * 4] = rgb[0];
    png.data[i * 4 + 1] = rgb[1];
    png.data[i * 4 + 2] = rgb[2];
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png);
}

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64');

function pixel(page: PNG, x: number, y: number): [number, number, number] {
  const i = (page.width * y + x) * 4;
  return [page.data[i] ?? 0, page.data[i + 1] ?? 0, page.data[i + 2] ?? 0];
}

describe('brand assets', () => {
  let server: TestServer;
  let t: TestTeam;
  let receiver: Server;
  let receiverHits = 0;
  let receiverUrl = '';
  before(async () => {
    server = await startTestServer({ renderTimeoutMs: 10_000 });
    t = await server.team('growth');
    receiver = createServer((_req, res) => {
      receiverHits++;
      res.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(4, 4, [0, 255, 0]));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  after(async () => {
    await server.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const upload = (key: string, body: unknown) => api(server.base, 'POST', '/v1/brand-assets', { key, body });

  it('stores a PNG logo and serves it under its signed link with a long cache; a wrong sig is 403', async () => {
    const logo = solidPng(200, 100, [220, 20, 60]);
    const r = await upload(t.live, { kind: 'logo', name: 'Red logo', content_base64: b64(logo) });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.kind, 'logo');
    assert.equal(r.json.content_type, 'image/png');
    assert.equal(r.json.bytes, logo.length);
    assert.match(
      r.json.url,
      new RegExp(`^${server.base}/v1/brand-assets/${r.json.id}\\.png\\?sig=[0-9a-f]{64}$`),
    );
    const file = await fetch(r.json.url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'image/png');
    assert.equal(file.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), logo);
    for (const bad of [forgeSignature(r.json.url), r.json.url.split('?')[0], `${r.json.url}0`]) {
      const refused = await fetch(bad);
      assert.equal(refused.status, 403, bad);
      assert.equal((await refused.json()).error.code, 'forbidden');
    }
    const list = await api(server.base, 'GET', '/v1/brand-assets', { key: t.test });
    assert.equal(list.status, 200, 'test keys read the shared assets');
    assert.deepEqual(
      list.json.data.map((a: { id: string }) => a.id),
      [r.json.id],
    );
  });

  it('replaces the logo with an SVG, stored as a 1024 px PNG; the old link answers 404', async () => {
    const before = (await api(server.base, 'GET', '/v1/brand-assets', { key: t.live })).json.data[0];
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect width="40" height="20" fill="#0000ff"/></svg>';
    const r = await upload(t.live, { kind: 'logo', name: 'Blue', content_base64: b64(svg) });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.content_type, 'image/png');
    const png = PNG.sync.read(Buffer.from(await (await fetch(r.json.url)).arrayBuffer()));
    assert.deepEqual([png.width, png.height], [1024, 512]);
    assert.deepEqual([png.data[0], png.data[1], png.data[2]], [0, 0, 255]);
    const list = await api(server.base, 'GET', '/v1/brand-assets', { key: t.live });
    assert.deepEqual(
      list.json.data.map((a: { id: string }) => a.id),
      [r.json.id],
      'one logo per team',
    );
    const old = await fetch(before.url);
    assert.equal(old.status, 404);
    assert.equal((await old.json()).error.code, 'not_found');
  });

  it('refuses SVG logos that reference anything outside themselves, without fetching it', async () => {
    const svgs = [
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image xlink:href="${receiverUrl}/a.png" width="10" height="10"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="${receiverUrl}/b.png" width="10" height="10"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="file:///etc/passwd" width="10" height="10"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect style="fill: url('${receiverUrl}/c#g')" width="10" height="10"/></svg>`,
      `<!DOCTYPE svg [<!ENTITY x "${receiverUrl}">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`,
    ];
    for (const svg of svgs) {
      const r = await upload(t.live, { kind: 'logo', name: 'x', content_base64: b64(svg) });
      assert.equal(r.status, 400, svg);
      assert.equal(r.json.error.code, 'invalid_request');
      assert.match(r.json.error.message, /SVG/);
    }
    assert.equal(receiverHits, 0, 'the receiver got no request');
    const embedded = `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><image href="data:image/png;base64,${b64(solidPng(4, 4, [0, 0, 255]))}" width="4" height="4"/></svg>`;
    const ok = await upload(t.live, { kind: 'logo', name: 'embedded', content_base64: b64(embedded) });
    assert.equal(ok.status, 201, 'a data: image inside the SVG is fine');
  });

  it('stores a TTF font and serves it as font/ttf', async () => {
    const font = readFileSync(FONT_FILE);
    const r = await upload(t.live, { kind: 'font', name: 'Mono', content_base64: b64(font) });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.content_type, 'font/ttf');
    assert.equal(r.json.family, 'Liberation Mono');
    const file = await fetch(r.json.url);
    assert.equal(file.headers.get('content-type'), 'font/ttf');
    assert.equal(Number(file.headers.get('content-length')), font.length);
  });

  it('renders a template with brand.logo_url and a brand font from storage: logo on page 1, font embedded', async () => {
    const logo = await upload(t.live, {
      kind: 'logo',
      name: 'Red',
      content_base64: b64(solidPng(200, 100, [220, 20, 60])),
    });
    assert.equal(logo.status, 201);
    const html = `<style>
      @font-face { font-family: BrandMono; src: url("{{ brand.fonts.Mono.url }}") format("{{ brand.fonts.Mono.format }}"); }
      body { margin: 0; font: 14pt BrandMono; }
      img { position: absolute; left: 0; top: 0; width: 200px; height: 100px; }
      p { margin-top: 150px; }
    </style><img src="{{ brand.logo_url }}"><p>Brand text</p>`;
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html, data: {}, margins: '0', response: 'url' },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.blocked_resources ?? [], []);
    const pdf = Buffer.from(await (await fetch(r.json.url)).arrayBuffer());
    assert.ok((await pdfFonts(pdf)).includes('LiberationMono-Italic'), (await pdfFonts(pdf)).join(','));
    const page = PNG.sync.read(await firstPagePng(pdf));
    // 200×100 CSS px = 150×75 pt; the middle of the logo is red, well below it the page is white.
    const [red, green, blue] = pixel(page, 75, 37);
    assert.ok(red > 180 && green < 80 && blue < 100, `logo pixel ${red},${green},${blue}`);
    assert.deepEqual(pixel(page, 75, 300), [255, 255, 255]);
  });

  it("does not serve another team's brand asset to a render, and a brand key in data takes precedence", async () => {
    const other = await server.team('growth');
    const foreign = (await api(server.base, 'GET', '/v1/brand-assets', { key: t.live })).json.data.find(
      (a: { kind: string }) => a.kind === 'logo',
    );
    const r = await api(server.base, 'POST', '/v1/pdf', {
      key: other.live,
      body: { html: `<img src="${foreign.url}"><p>{{ brand.logo_url }}|</p>`, data: {}, response: 'url' },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.blocked_resources.length, 1, JSON.stringify(r.json.blocked_resources));
    const own = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<p>{{ brand.logo_url }}</p>', data: { brand: { logo_url: 'mine' } }, response: 'url' },
    });
    assert.equal(own.status, 200);
    const pdf = Buffer.from(await (await fetch(own.json.url)).arrayBuffer());
    assert.match(await pdfText(pdf), /mine/);
  });

  it('refuses invalid files and names with invalid_request and a clear message', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ kind: 'logo', name: 'x', content_base64: b64('GIF89a not accepted') }, /PNG, a JPEG nor an SVG/],
      [
        { kind: 'font', name: 'Bad', content_base64: b64('definitely not a font') },
        /not a WOFF2, TTF or OTF/,
      ],
      [
        { kind: 'font', name: 'Trunc', content_base64: b64(readFileSync(FONT_FILE).subarray(0, 200)) },
        /could not be read/,
      ],
      [{ kind: 'font', name: 'has space', content_base64: b64(readFileSync(FONT_FILE)) }, /font name/],
      [{ kind: 'logo', name: 'x', content_base64: 'not base64!' }, /base64/],
      [{ kind: 'icon', name: 'x', content_base64: 'AAAA' }, /kind/],
      [{ kind: 'logo', name: 'x', content_base64: 'AAAA', extra: 1 }, /extra/],
      [
        {
          kind: 'logo',
          name: 'x',
          content_base64: b64(Buffer.concat([solidPng(2, 2, [0, 0, 0]), Buffer.alloc(2 * 1024 * 1024)])),
        },
        /at most 2097152 bytes/,
      ],
      [
        {
          kind: 'font',
          name: 'Big',
          content_base64: b64(Buffer.concat([Buffer.from('OTTO'), Buffer.alloc(3 * 1024 * 1024)])),
        },
        /at most 3145728 bytes/,
      ],
    ];
    for (const [body, message] of cases) {
      const r = await upload(t.live, body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(r.json.error.code, 'invalid_request');
      assert.match(r.json.error.message, message);
    }
  });

  it('lets test keys read but not change brand assets; delete makes the link answer 404', async () => {
    const font = await upload(t.live, {
      kind: 'font',
      name: 'Gone',
      content_base64: b64(readFileSync(FONT_FILE)),
    });
    const refused = await upload(t.test, {
      kind: 'font',
      name: 'T',
      content_base64: b64(readFileSync(FONT_FILE)),
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.code, 'forbidden');
    const testDelete = await api(server.base, 'DELETE', `/v1/brand-assets/${font.json.id}`, { key: t.test });
    assert.equal(testDelete.json.error.code, 'forbidden');
    const other = await server.team('growth');
    const foreign = await api(server.base, 'DELETE', `/v1/brand-assets/${font.json.id}`, { key: other.live });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.json.error.code, 'not_found');
    const gone = await api(server.base, 'DELETE', `/v1/brand-assets/${font.json.id}`, { key: t.live });
    assert.equal(gone.status, 204);
    const link = await fetch(font.json.url);
    assert.equal(link.status, 404);
    assert.equal((await link.json()).error.code, 'not_found');
    const again = await api(server.base, 'DELETE', `/v1/brand-assets/${font.json.id}`, { key: t.live });
    assert.equal(again.status, 404);
  });

  it("team erase removes the team's brand assets, their files and its activity entries", async () => {
    const gone = await server.team('growth');
    const font = await upload(gone.live, {
      kind: 'font',
      name: 'Mono',
      content_base64: b64(readFileSync(FONT_FILE)),
    });
    const doc = await api(server.base, 'POST', '/v1/pdf', { key: gone.live, body: { html: '<p>x</p>' } });
    assert.equal(doc.status, 200);
    const { db, blobs } = server.built.services;
    const key = `brand/${gone.team.id}/${font.json.id}.ttf`;
    assert.ok(await blobs.exists(key));
    assert.ok(await eraseTeam(db, blobs, gone.team.id));
    for (const table of ['brand_assets', 'document_activity'] as const) {
      const left = await db.selectFrom(table).select('id').where('team_id', '=', gone.team.id).execute();
      assert.equal(left.length, 0, table);
    }
    assert.equal(await blobs.exists(key), false);
    assert.equal((await fetch(font.json.url)).status, 404);
  });
});
