import assert from 'node:assert/strict';
import dns from 'node:dns/promises';
import os from 'node:os';
import { after, before, describe, it } from 'node:test';
import type { Renderer } from '../../../src/render/index.js';
import { pdfText } from '../../helpers/pdf.js';
import { job, RED_PNG, startRenderer, type TestServer, testServer } from './helpers.js';

let server: TestServer;
let guarded: Renderer;
let open: Renderer;

before(async () => {
  server = await testServer({
    '/red.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(RED_PNG),
    '/big.png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(5000)),
    '/slow.png': (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(RED_PNG), 1500);
    },
    '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
    '/cookie.png': (_req, res) =>
      res.writeHead(200, { 'content-type': 'image/png', 'set-cookie': 'tracker=1' }).end(RED_PNG),
  });
  [guarded, open] = await Promise.all([
    startRenderer({ allowPrivateResources: false }),
    startRenderer({ allowPrivateResources: true, resourceMaxBytes: 2048, resourceTimeoutMs: 500 }),
  ]);
});
after(async () => {
  await Promise.all([guarded.close(), open.close()]);
  await server.close();
});

/** Loads one URL as an image and reports in the PDF text whether it arrived. */
const imageDoc = (url: string) =>
  `<img src="${url}" onload="document.body.append(' LOADED')" onerror="document.body.append(' FAILED')"><p>doc</p>`;

describe('SSRF table: every refused request is listed as "URL: reason"', () => {
  const table: Array<[string, string, RegExp]> = [
    ['loopback', 'http://127.0.0.1:PORT/red.png', /^http:\/\/127\.0\.0\.1:\d+\/red\.png: loopback address$/],
    [
      'loopback short form 127.1',
      'http://127.1:PORT/red.png',
      /^http:\/\/127\.0\.0\.1:\d+\/red\.png: loopback address$/,
    ],
    [
      'loopback as decimal 2130706433',
      'http://2130706433:PORT/red.png',
      /^http:\/\/127\.0\.0\.1:\d+\/red\.png: loopback/,
    ],
    ['localhost', 'http://localhost:PORT/red.png', /^http:\/\/localhost:\d+\/red\.png: loopback address$/],
    ['0.0.0.0', 'http://0.0.0.0:PORT/red.png', /^http:\/\/0\.0\.0\.0:\d+\/red\.png: .+/],
    ['10/8', 'http://10.1.2.3/x.png', /^http:\/\/10\.1\.2\.3\/x\.png: private address$/],
    ['172.16/12', 'http://172.16.5.4/x.png', /^http:\/\/172\.16\.5\.4\/x\.png: private address$/],
    ['192.168/16', 'http://192.168.1.1/x.png', /^http:\/\/192\.168\.1\.1\/x\.png: private address$/],
    ['metadata 169.254.169.254', 'http://169.254.169.254/latest/meta-data/', /: linkLocal address$/],
    [
      'IPv6 loopback [::1]',
      'http://[::1]:PORT/red.png',
      /^http:\/\/\[::1\]:\d+\/red\.png: loopback address$/,
    ],
    ['IPv4-mapped [::ffff:127.0.0.1]', 'http://[::ffff:127.0.0.1]:PORT/red.png', /: loopback address$/],
    ['unique local fd00::1', 'http://[fd00::1]/x.png', /: uniqueLocal address$/],
    ['file:///etc/passwd', 'file:///etc/passwd', /^file:\/\/\/etc\/passwd: scheme file: not allowed$/],
    ['ftp:', 'ftp://example.com/x.png', /^ftp:\/\/example\.com\/x\.png: scheme ftp: not allowed$/],
    ['chrome:', 'chrome://settings/x.png', /^chrome:\/\/settings\/x\.png: scheme chrome: not allowed$/],
  ];
  for (const [name, rawUrl, expected] of table) {
    it(name, async () => {
      const url = rawUrl.replace('PORT', String(server.port));
      const result = await guarded.render(job(imageDoc(url)));
      assert.equal(result.blockedCount, 1, JSON.stringify(result.blockedResources));
      assert.match(result.blockedResources[0] ?? '', expected);
      assert.match(await pdfText(result.pdf), /FAILED/);
    });
  }

  it('a DNS name that resolves to loopback is refused on the resolved address', async () => {
    // Debian maps the machine's own name to a loopback address in /etc/hosts (127.0.0.1 or 127.0.1.1).
    const host = os.hostname();
    const addresses = await dns.lookup(host, { all: true }).catch(() => []);
    assert.ok(
      addresses.some((a) => a.address.startsWith('127.')),
      `this test needs ${host} to resolve to loopback (add it to /etc/hosts); it resolved to ${JSON.stringify(addresses)}`,
    );
    const result = await guarded.render(job(imageDoc(`http://${host}:${server.port}/red.png`)));
    assert.match(result.blockedResources[0] ?? '', /: loopback address$/);
  });

  it('stylesheets, fonts and fetch() are guarded too; 10 listed, all counted', async () => {
    const imgs = Array.from({ length: 12 }, (_, i) => `<img src="http://10.0.0.${i + 1}/i.png">`).join('');
    const html = `<link rel="stylesheet" href="http://192.168.0.1/s.css">
      <style>@font-face{font-family:F;src:url(http://172.16.0.1/f.woff)} p{font-family:F}</style>
      <script>fetch('http://127.0.0.1:${server.port}/red.png').catch(() => {})</script>${imgs}<p>text</p>`;
    const result = await guarded.render(job(html));
    assert.equal(result.blockedCount, 15, JSON.stringify(result.blockedResources));
    assert.equal(result.blockedResources.length, 10);
  });

  it('no refused request reached the test server', () => {
    assert.deepEqual(server.hits, []);
  });
});

describe('allowPrivateResources', () => {
  it('loads the loopback image when on, refuses it when off', async () => {
    const url = `${server.origin}/red.png`;
    const allowed = await open.render(job(imageDoc(url)));
    assert.match(await pdfText(allowed.pdf), /LOADED/);
    assert.equal(allowed.blockedCount, 0);
    assert.deepEqual(server.hits, ['/red.png']);
    const refused = await guarded.render(job(imageDoc(url)));
    assert.match(await pdfText(refused.pdf), /FAILED/);
    assert.deepEqual(server.hits, ['/red.png']);
  });

  it('refuses answers over resourceMaxBytes and slower than resourceTimeoutMs', async () => {
    const big = await open.render(job(imageDoc(`${server.origin}/big.png`)));
    assert.match(big.blockedResources[0] ?? '', /big\.png: larger than 2048 bytes$/);
    const slow = await open.render(job(imageDoc(`${server.origin}/slow.png`)));
    assert.match(slow.blockedResources[0] ?? '', /slow\.png: no complete answer within 500 ms$/);
  });

  it('checks every redirect hop', async () => {
    const result = await open.render(job(imageDoc(`${server.origin}/to-file`)));
    assert.match(
      result.blockedResources[0] ?? '',
      /to-file: redirect to file:\/\/\/etc\/passwd: scheme file: not allowed$/,
    );
  });

  it('refuses methods other than GET and HEAD', async () => {
    const html = `<script>fetch('${server.origin}/red.png', { method: 'POST', body: 'x' }).catch(() => {})</script><p>x</p>`;
    const result = await open.render(job(html));
    assert.match(result.blockedResources[0] ?? '', /red\.png: method POST not allowed$/);
  });
});

describe('nothing escapes the document', () => {
  it('navigation away (location, meta refresh) is refused and the document is printed', async () => {
    // (A navigation started while the parser runs stops it, as in any browser: so the script comes last.)
    const html = `<meta http-equiv="refresh" content="0;url=${server.origin}/meta"><p>STILL HERE</p>
      <script>location.href = '${server.origin}/away'</script>`;
    const result = await open.render(job(html));
    assert.match(await pdfText(result.pdf), /STILL HERE/);
    assert.ok(result.blockedResources.some((e) => e.endsWith('navigation away from the document refused')));
    assert.ok(!server.hits.includes('/away') && !server.hits.includes('/meta'), server.hits.join());
  });

  it('file: and chrome: navigations and frames never load', async () => {
    const html = `<iframe src="file:///etc/hostname"></iframe><script>location = 'chrome://version'</script><p>ORIGINAL</p>`;
    const result = await guarded.render(job(html));
    const text = await pdfText(result.pdf);
    assert.match(text, /ORIGINAL/);
    assert.ok(result.blockedResources.some((e) => e.startsWith('file:///etc/hostname: scheme file:')));
  });

  it('window.open opens nothing', async () => {
    await open.settled();
    const before = open.stats().pages;
    const result = await open.render(job(`<script>window.open('${server.origin}/popup')</script><p>x</p>`));
    await open.settled();
    assert.equal(open.stats().pages, before);
    assert.ok(!server.hits.includes('/popup'));
    assert.ok(result.pdf.length > 0);
  });

  it('WebSockets cannot connect even with private resources allowed (Chromium has no network)', async () => {
    const html = `<script>
      const ws = new WebSocket('ws://127.0.0.1:${server.port}/ws');
      window.done = new Promise((resolve) => { ws.onerror = ws.onopen = resolve; });
    </script><img src="${server.origin}/slow.png"><p>ws</p>`;
    await open.render(job(html));
    assert.ok(!server.hits.some((h) => h.startsWith('WS')), server.hits.join());
  });

  it('response cookies are not passed to the browser', async () => {
    const html = `<img src="${server.origin}/cookie.png" onload="document.body.append(' LOADED')">`;
    const result = await open.render(job(html));
    assert.match(await pdfText(result.pdf), /LOADED/);
    const context = open.supervisor.connected()?.contexts()[0];
    assert.ok(context);
    assert.deepEqual(await context.cookies(), []);
  });
});
