import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import type { App } from '../../../src/http/server.js';
import { registerWebApp } from '../../../src/web/plugin.js';
import { serverForBlock, type TestServer } from '../../helpers/server.js';

describe('dashboard static serving (/app/)', () => {
  let server: TestServer;
  serverForBlock((s) => (server = s));

  it('GET / redirects to /app/', async () => {
    const res = await fetch(`${server.base}/`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/app/');
  });

  it('GET /app (no trailing slash) redirects to /app/', async () => {
    const res = await fetch(`${server.base}/app`, { redirect: 'manual' });
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), '/app/');
    assert.equal((await fetch(`${server.base}/app`)).status, 200);
  });

  it("answers /favicon.ico with Quire's icon, which index.html names (no 404 on every page)", async () => {
    const res = await fetch(`${server.base}/favicon.ico`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml');
    assert.match(await res.text(), /^<svg /);
    assert.match(
      await (await fetch(`${server.base}/app/`)).text(),
      /<link rel="icon" type="image\/svg\+xml" href="\/favicon.ico"/,
    );
  });

  it('shows /docs/errors without raw backticks: code names in the meanings are code', async () => {
    const page = await (await fetch(`${server.base}/docs/errors`)).text();
    assert.doesNotMatch(page, /`/);
    assert.match(page, /<code>prepend<\/code>/);
  });

  it('serves index.html with no-cache and hashed assets as immutable', async () => {
    const res = await fetch(`${server.base}/app/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    const html = await res.text();
    const asset = /src="(\/app\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
    assert.ok(asset, `index.html links a hashed script: ${html}`);
    const js = await fetch(`${server.base}${asset}`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  });

  it('sends a strict CSP and the other protective headers on every dashboard page and asset', async () => {
    const html = await (await fetch(`${server.base}/app/`)).text();
    assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>/, 'no inline script in the built page');
    const assets = [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
    assert.ok(assets.some((a) => a.endsWith('.css')) && assets.some((a) => a.endsWith('.js')));
    for (const url of ['/', '/app/', '/app/index.html', ...assets]) {
      const res = await fetch(`${server.base}${url}`, { redirect: 'manual' });
      assert.ok(res.status < 400, `${url}: ${res.status}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /(^|; )script-src 'self'(;|$)/, `${url}: ${csp}`);
      assert.match(csp, /(^|; )default-src 'none'(;|$)/, url);
      assert.match(csp, /(^|; )frame-ancestors 'none'(;|$)/, url);
      assert.match(csp, /(^|; )object-src blob:(;|$)/, url);
      assert.doesNotMatch(csp, /script-src[^;]*unsafe/, url);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', url);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', url);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', url);
    }
    const api = await fetch(`${server.base}/healthz`);
    assert.equal(api.headers.get('content-security-policy'), null, 'the API keeps its own headers');
  });

  it('answers 404 for an unknown asset and never lists the folder', async () => {
    assert.equal((await fetch(`${server.base}/app/assets/nope-123.js`)).status, 404);
    assert.equal((await fetch(`${server.base}/app/assets/`)).status, 404);
  });
});

describe('dashboard not built', () => {
  it('says how to build it instead of a bare 404', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'quire-web-'));
    mkdirSync(path.join(empty, 'assets'));
    writeFileSync(path.join(empty, 'assets', 'x.js'), '');
    const app = Fastify() as unknown as App;
    try {
      await registerWebApp(app, empty);
      const res = await app.inject({ method: 'GET', url: '/app/' });
      assert.equal(res.statusCode, 503);
      assert.match(res.body, /npm run bootstrap/);
      assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
