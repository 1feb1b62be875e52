import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config/config.js';
import type { Renderer } from '../../../src/render/index.js';
import { job, RED_PNG, startRenderer, type TestServer, testServer } from './helpers.js';

const MiB = 1024 * 1024;
const IMAGES = 8;
const big = Buffer.alloc(MiB, 1);

/** `count` routes /<prefix>/<i>.png answering with `handler`. */
function routes(
  prefix: string,
  count: number,
  handler: http.RequestListener,
): Record<string, http.RequestListener> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`/${prefix}/${i}.png`, handler]));
}

let server: TestServer;
let small: Renderer;

before(async () => {
  server = await testServer({
    // 1 MiB each with Content-Length, 1 MiB each without (chunked), and tiny valid images.
    ...routes('big', IMAGES, (_req, res) =>
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': big.length }).end(big),
    ),
    ...routes('chunked', IMAGES, (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      for (let i = 0; i < 16; i++) res.write(big.subarray(0, MiB / 16));
      res.end();
    }),
    ...routes('red', IMAGES, (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(RED_PNG)),
  });
  // The budget is under test, not the time limit: a loaded CI machine (the suite runs files side by side,
  // some with Java's validator) once took over the helper's 3 s for six 1 MiB images.
  small = await startRenderer({
    renderTimeoutMs: 20_000,
    allowPrivateResources: true,
    resourceMaxCount: 6,
    resourceMaxTotalBytes: 3 * MiB,
  });
});
after(async () => {
  await small.close();
  await server.close();
});

const images = (prefix: string, count = IMAGES) =>
  Array.from({ length: count }, (_, i) => `<img src="${server.origin}/${prefix}/${i}.png">`).join('') +
  '<p>doc</p>';

describe('per-document budget for external resources', () => {
  it('defaults to 100 resources and 50 MB per document', () => {
    const config = loadConfig({}, { dataDir: '/tmp' });
    assert.equal(config.resourceMaxCount, 100);
    assert.equal(config.resourceMaxTotalBytes, 50 * MiB);
  });

  it('resources past the total are refused with the reason; those that fit load', async () => {
    const result = await small.render(job(images('big', 6)));
    // 3 MiB of 6 × 1 MiB announced in advance: exactly three fit.
    assert.equal(result.blockedCount, 3, JSON.stringify(result.blockedResources));
    for (const entry of result.blockedResources) {
      assert.match(
        entry,
        /\/big\/\d\.png: over the document's total of 3145728 bytes of external resources$/,
      );
    }
  });

  it('resources without a Content-Length are counted as they arrive', async () => {
    const result = await small.render(job(images('chunked', 6)));
    // 3 MiB of 6 × 1 MiB: at most three arrive whole; the rest are refused, some part-way.
    assert.ok(result.blockedCount >= 3, JSON.stringify(result.blockedResources));
    for (const entry of result.blockedResources) {
      assert.match(entry, /: over the document's total of 3145728 bytes of external resources$/);
    }
  });

  it('past the number of resources a document may load, the rest are refused', async () => {
    const result = await small.render(job(images('red')));
    assert.equal(result.blockedCount, IMAGES - 6, JSON.stringify(result.blockedResources));
    for (const entry of result.blockedResources) {
      assert.match(entry, /\/red\/\d\.png: over the document's limit of 6 external resources$/);
    }
  });

  it('the budget is per document: the next document gets a full one', async () => {
    await small.render(job(images('red')));
    const next = await small.render(job(images('red', 6)));
    assert.equal(next.blockedCount, 0, JSON.stringify(next.blockedResources));
  });
});
