import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { busyDocument } from '../../helpers/chromium.js';
import { pdfText } from '../../helpers/pdf.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

async function render(server: TestServer, html: string, data?: Record<string, unknown>) {
  const team = await server.team('growth');
  return api(server.base, 'POST', '/v1/pdf', { key: team.live, body: { html, ...(data ? { data } : {}) } });
}

async function rendersText(
  server: TestServer,
  text: string,
  data?: Record<string, unknown>,
): Promise<string> {
  const res = await render(server, `<p>${text}</p>`, data);
  assert.equal(res.status, 200, res.text);
  return pdfText(res.buffer);
}

/** How many renders each server's renderer has under way while `busy` holds a page for about 2.5 s. */
async function busyWhile(busy: TestServer, servers: TestServer[]): Promise<number[]> {
  const holding = render(busy, busyDocument(2500));
  const busyOf = async (server: TestServer) => (await server.built.services.renderer.stats())?.busy ?? 0;
  await waitUntil('the long render holds its page', async () => (await busyOf(busy)) === 1);
  const seen = await Promise.all(servers.map(busyOf));
  assert.equal((await holding).status, 200);
  return seen;
}

const sharing =
  Boolean(process.env.QUIRE_CHROMIUM_WS_ENDPOINT) && process.env.QUIRE_TEST_SHARED_ENGINES !== '0';

/**
 * The test servers of one process render on one renderer and run Liquid on one pool
 * (test/helpers/shared-engines.ts) when they configure them alike: one page and context in the run's Chromium
 * and one set of worker threads instead of one each. A server that closes leaves them to the others (the app's
 * `sharedRenderer` and `sharedPools` seams: borrowed, never closed or shut down by the borrower).
 */
describe('test servers share one renderer and one set of worker pools', { skip: !sharing }, () => {
  it('alike servers render on one page, and one closing leaves it rendering for the other', async () => {
    const first = await startTestServer();
    const second = await startTestServer();
    try {
      assert.match(await rendersText(first, 'from the first'), /from the first/);
      assert.match(await rendersText(second, 'from the second'), /from the second/);
      assert.deepEqual(await busyWhile(first, [second]), [1], "the first's render holds the second's page");
      assert.equal(first.built.services.liquid, second.built.services.liquid, 'one Liquid pool');
      await first.close();
      assert.match(
        await rendersText(second, 'after {{ who }} closed', { who: 'the first' }),
        /after the first closed/,
      );
      const ready = await api(second.base, 'GET', '/readyz');
      assert.equal(ready.status, 200, 'the first server did not shut the renderer down');
    } finally {
      await first.close().catch(() => undefined);
      await second.close();
    }
  });

  it('a server whose rendering is configured otherwise, or that logs, has a renderer of its own', async () => {
    const alike = await startTestServer();
    const other = await startTestServer({ renderTimeoutMs: 90_000 });
    const logging = await startTestServer({ logLevel: 'error' });
    try {
      for (const server of [other, logging]) assert.match(await rendersText(server, 'own'), /own/);
      assert.deepEqual(await busyWhile(alike, [other, logging]), [0, 0]);
      assert.notEqual(
        alike.built.services.liquid,
        logging.built.services.liquid,
        'the logging one has its own pool',
      );
    } finally {
      await Promise.all([alike, other, logging].map((s) => s.close()));
    }
  });
});
