import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { warnAboutTrustingEveryHop, warnAboutWildcardLinks } from '../../../src/cli/serve.js';
import { loadConfig } from '../../../src/config/config.js';
import { api, REQUEST_ID, startTestServer } from '../../helpers/server.js';

/** Spends a 3-per-minute IP budget as client `a`, then asks once as client `b` (both via X-Forwarded-For). */
async function secondClientStatus(
  trustProxy: boolean | number | string[],
  forwardedFor = (ip: string, _attempt: number) => ip,
): Promise<{ first: number[]; other: number }> {
  const server = await startTestServer({ ipRateLimitPerMin: 3, trustProxy });
  try {
    let attempt = 0;
    const as = (ip: string) =>
      api(server.base, 'GET', '/healthz', { headers: { 'x-forwarded-for': forwardedFor(ip, attempt++) } });
    const first: number[] = [];
    for (let i = 0; i < 4; i++) first.push((await as('203.0.113.7')).status);
    return { first, other: (await as('198.51.100.9')).status };
  } finally {
    await server.close();
  }
}

describe('behind a reverse proxy (QUIRE_TRUST_PROXY)', () => {
  it('trustProxy off: X-Forwarded-For is ignored, every client shares the socket address budget', async () => {
    const { first, other } = await secondClientStatus(false);
    assert.deepEqual(first, [200, 200, 200, 429]);
    assert.equal(other, 429);
  });

  it('trustProxy on (true or a hop count): each forwarded client has its own budget', async () => {
    for (const setting of [true, 1]) {
      const { first, other } = await secondClientStatus(setting);
      assert.deepEqual(first, [200, 200, 200, 429], String(setting));
      assert.equal(other, 200, String(setting));
    }
  });

  it('a hop count or proxy list takes the address the proxy saw, not one the client wrote before it', async () => {
    // The client sends its own X-Forwarded-For (a new made-up address each time); the proxy appends the
    // address it saw. Only the proxy's entry is believed, so the made-up ones share one budget.
    const spoofed = (ip: string, attempt: number) => `192.0.2.${attempt + 1}, ${ip}`;
    for (const setting of [1, ['127.0.0.1']]) {
      const { first, other } = await secondClientStatus(setting, spoofed);
      assert.deepEqual(first, [200, 200, 200, 429], String(setting));
      assert.equal(other, 200, String(setting));
    }
    // `true` believes the left-most entry: every made-up address gets a budget of its own.
    const { first } = await secondClientStatus(true, spoofed);
    assert.deepEqual(first, [200, 200, 200, 200]);
  });

  it('warns at start when QUIRE_TRUST_PROXY is true', () => {
    const warnings: string[] = [];
    for (const value of ['true', '1', '127.0.0.1', 'false'])
      warnAboutTrustingEveryHop(loadConfig({ QUIRE_TRUST_PROXY: value }), (m) => warnings.push(m));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /QUIRE_TRUST_PROXY=true trusts every X-Forwarded-For hop/);
  });

  it('parses the Fastify forms from the environment', () => {
    const parse = (v: string) => loadConfig({ QUIRE_TRUST_PROXY: v }).trustProxy;
    assert.equal(parse('true'), true);
    assert.equal(parse('false'), false);
    assert.equal(parse('2'), 2);
    assert.deepEqual(parse('127.0.0.1, 10.0.0.0/8'), ['127.0.0.1', '10.0.0.0/8']);
    assert.throws(() => parse('proxy.example'), /QUIRE_TRUST_PROXY must be/);
  });

  it('keeps a valid incoming X-Request-Id and replaces an invalid one', async () => {
    const server = await startTestServer();
    try {
      const id = `req_${'ab'.repeat(16)}`;
      const kept = await api(server.base, 'GET', '/healthz', { headers: { 'x-request-id': id } });
      assert.equal(kept.headers.get('x-request-id'), id);
      const replaced = await api(server.base, 'GET', '/healthz', {
        headers: { 'x-request-id': 'my-own-id; DROP' },
      });
      const newId = replaced.headers.get('x-request-id') ?? '';
      assert.match(newId, REQUEST_ID);
      assert.notEqual(newId, id);
    } finally {
      await server.close();
    }
  });

  it('warns when bound to a wildcard address without QUIRE_PUBLIC_URL', () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    warnAboutWildcardLinks(loadConfig({ QUIRE_HOST: '0.0.0.0' }), warn);
    warnAboutWildcardLinks(
      loadConfig({ QUIRE_HOST: '0.0.0.0', QUIRE_PUBLIC_URL: 'https://pdf.example.com' }),
      warn,
    );
    warnAboutWildcardLinks(loadConfig({ QUIRE_HOST: '127.0.0.1' }), warn);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /QUIRE_PUBLIC_URL is unset/);
  });
});
