import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pdfText } from '../../helpers/pdf.js';
import {
  kill,
  OWN_CHROMIUM,
  type Serving,
  serveQuire,
  waitForRendering,
} from '../../helpers/quire-process.js';
import { api, startTestServer } from '../../helpers/server.js';
import { appError, job } from './helpers.js';

/** A document whose script keeps the render busy for about 3 s. */
const BUSY_3S = '<script>const end = Date.now() + 3000; while (Date.now() < end) {}</script><p>finished</p>';

/** `quire serve` on a free port and a fresh data directory (SQLite); resolves once it serves. */
async function serve(dataDir: string): Promise<Serving & { liveKey: string }> {
  const served = await serveQuire({
    QUIRE_DATA_DIR: dataDir,
    QUIRE_WORKERS: '0',
    QUIRE_METRICS: 'public',
    // Shutdown closes the Chromium it launched: that is part of what is tested.
    ...OWN_CHROMIUM,
  });
  assert.ok(served.liveKey, served.output());
  return { ...served, liveKey: served.liveKey };
}

describe('quire serve on SIGTERM', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-shutdown-'));
  let served: (Serving & { liveKey: string }) | undefined;
  after(async () => {
    if (served) await kill(served);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the render in flight, answers it with the PDF, then exits 0', async () => {
    served = await serve(dataDir);
    const render = api(served.base, 'POST', '/v1/pdf', { key: served.liveKey, body: { html: BUSY_3S } });
    await waitForRendering(served);
    served.child.kill('SIGTERM');
    const response = await render;
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.match(await pdfText(response.buffer), /finished/);
    assert.equal(await served.exit, 0);
  });
});

describe('the renderer after the service has closed', () => {
  it('a render asked for then (work finishing after shutdown) is service_busy and starts no Chromium', async () => {
    const server = await startTestServer();
    const { renderer } = server.built.services;
    try {
      assert.match(await pdfText((await renderer.render(job('<p>in time</p>'))).pdf), /in time/);
    } finally {
      await server.close();
    }
    const err = await appError(renderer.render(job('<p>too late</p>')));
    assert.equal(err.code, 'service_busy');
    assert.equal(await renderer.stats(), null, 'no renderer was started again');
  });
});
