import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OWN_CHROMIUM } from '../../helpers/chromium.js';
import { pdfText } from '../../helpers/pdf.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';

/** Keeps the page busy for about 1.5 s of script, well inside the render limit. */
const BUSY = '<script>const end = Date.now() + 1500; while (Date.now() < end) {}</script><p>survived</p>';

let server: TestServer;
let team: TestTeam;

before(async () => {
  server = await startTestServer(
    { ...OWN_CHROMIUM, renderTimeoutMs: 20_000, renderPoolSize: 1 },
    { warmRenderer: true },
  );
  team = await server.team('scale');
});
after(async () => server.close());

async function browserPid(): Promise<number> {
  const pid = (await server.built.services.renderer.stats())?.browserPid;
  assert.ok(pid, 'the renderer reports its browser pid');
  return pid;
}

/** Polls /readyz until `done` settles; returns every status seen, in order (repeats collapsed). */
async function readinessWhile(done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const seen: number[] = [];
  while (!finished) {
    const { status } = await api(server.base, 'GET', '/readyz');
    if (seen.at(-1) !== status) seen.push(status);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return seen;
}

describe('Chromium killed under a render', () => {
  it('the render succeeds on the relaunched browser; /readyz is 503 until Chromium is back', async () => {
    assert.equal((await api(server.base, 'GET', '/readyz')).status, 200);
    const pid = await browserPid();
    const render = api(server.base, 'POST', '/v1/pdf', { key: team.live, body: { html: BUSY } });
    await new Promise((resolve) => setTimeout(resolve, 400)); // the document's loop is running
    process.kill(pid, 'SIGKILL');
    const statuses = await readinessWhile(render);
    const response = await render;
    assert.equal(response.status, 200, response.text);
    assert.match(await pdfText(response.buffer), /survived/);
    assert.ok(statuses.includes(503), `readiness seen: ${statuses.join(' → ')}`);
    assert.equal((await api(server.base, 'GET', '/readyz')).status, 200);
    assert.notEqual(await browserPid(), pid);
  });

  it('a browser killed just before a render: the render still succeeds', async () => {
    process.kill(await browserPid(), 'SIGKILL');
    const response = await api(server.base, 'POST', '/v1/pdf', {
      key: team.live,
      body: { html: '<p>after</p>' },
    });
    assert.equal(response.status, 200, response.text);
    assert.match(await pdfText(response.buffer), /after/);
  });
});
