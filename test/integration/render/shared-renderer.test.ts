import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { busyDocument } from '../../helpers/chromium.js';
import { pdfText } from '../../helpers/pdf.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

async function render(server: TestServer, html: string) {
  const team = await server.team('growth');
  return api(server.base, 'POST', '/v1/pdf', { key: team.live, body: { html } });
}

async function rendersText(server: TestServer, text: string): Promise<string> {
  const res = await render(server, `<p>${text}</p>`);
  assert.equal(res.status, 200, res.text);
  return pdfText(res.buffer);
}

/** How many renders each server's renderer has under way while `busy` holds a page for about 3 s. */
async function busyWhile(busy: TestServer, servers: TestServer[]): Promise<number[]> {
  const holding = render(busy, busyDocument(3000));
  const busyOf = async (server: TestServer) => (await server.built.services.renderer.stats())?.busy ?? 0;
  await waitUntil('the long render holds its page', async () => (await busyOf(busy)) === 1);
  const seen = await Promise.all(servers.map(busyOf));
  assert.equal((await holding).status, 200);
  return seen;
}

/**
 * The test servers of one process render on one renderer (test/helpers/shared-renderer.ts) when their
 * rendering is configured alike: one page and context in the run's Chromium instead of one each. A server
 * that closes leaves it to the others (the app's `sharedRenderer` seam: borrowed, never closed or shut down
 * by the borrower).
 */
const sharing =
  Boolean(process.env.QUIRE_CHROMIUM_WS_ENDPOINT) && process.env.QUIRE_TEST_SHARED_RENDERER !== '0';

describe('test servers share one renderer', { skip: !sharing }, () => {
  it('alike servers render on one page, and one closing leaves it rendering for the other', async () => {
    const first = await startTestServer();
    const second = await startTestServer();
    try {
      assert.match(await rendersText(first, 'from the first'), /from the first/);
      assert.match(await rendersText(second, 'from the second'), /from the second/);
      assert.deepEqual(await busyWhile(first, [second]), [1], "the first's render holds the second's page");
      await first.close();
      assert.match(await rendersText(second, 'after the first closed'), /after the first closed/);
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
    } finally {
      await Promise.all([alike, other, logging].map((s) => s.close()));
    }
  });
});
