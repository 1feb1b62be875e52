import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { MAX_SVG_IMAGE_PIXELS } from '../../../src/brand/svg-tree.js';
import { onePng, svgWithImage } from '../../helpers/raster.js';
import { api, serverWithTeam, type TestServer, type TestTeam } from '../../helpers/server.js';

/**
 * An SVG logo embedding a raster image bomb: a 20000×20000 1-bit PNG is a few hundred bytes, and resvg
 * decoding it took seconds and 2 GB of native memory in the upload worker. The server runs in this process
 * with its worker threads, so this process's RSS shows what the upload cost.
 */
const RSS_GROWTH_MAX_MB = 200;
const MB = 1024 * 1024;

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64');

/** Runs `work` while sampling this process's RSS every 10 ms; its result and the peak growth in MB. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - before) / MB };
  } finally {
    clearInterval(sampler);
  }
}

describe('brand logo: SVGs embedding raster images', () => {
  let server: TestServer;
  let t: TestTeam;
  serverWithTeam('growth', (both) => ({ server, team: t } = both));

  const upload = (svg: string) =>
    api(server.base, 'POST', '/v1/brand-assets', {
      key: t.live,
      body: { kind: 'logo', name: 'Logo', content_base64: b64(svg) },
    });

  it('refuses an SVG embedding a 20000×20000 1-bit PNG from its header, with the limit, and the server grows by little', async () => {
    const svg = svgWithImage(onePng(20_000, 20_000, 1));
    assert.ok(svg.length < 1024, `${svg.length} bytes`);
    // Warm the path first, so the measurement is of the refused upload alone.
    await upload(svgWithImage(onePng(4, 4)));
    const { result: r, growthMb } = await withPeakRss(() => upload(svg));
    console.log(`# the upload answered ${r.status}; RSS +${growthMb.toFixed(0)} MB`);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error.code, 'invalid_request');
    assert.match(
      r.json.error.message,
      /embeds a 20000×20000 image; embed images of at most 16777216 pixels \(4096×4096\), or upload the logo as PNG/,
    );
    assert.deepEqual(r.json.error.details, {
      field: 'content_base64',
      limit: 'svg_image_pixels',
      max: MAX_SVG_IMAGE_PIXELS,
    });
    assert.ok(growthMb < RSS_GROWTH_MAX_MB, `RSS grew ${growthMb.toFixed(0)} MB`);
  });

  it('stores an SVG embedding a small PNG as a PNG with the image drawn', async () => {
    const blue = new PNG({ width: 4, height: 2 });
    for (let i = 0; i < blue.data.length; i += 4) blue.data.set([0, 0, 255, 255], i);
    const r = await upload(svgWithImage(PNG.sync.write(blue)));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.content_type, 'image/png');
    const png = PNG.sync.read(Buffer.from(await (await fetch(r.json.url)).arrayBuffer()));
    assert.deepEqual([png.width, png.height], [1024, 512]);
    assert.deepEqual([...png.data.subarray(0, 4)], [0, 0, 255, 255]);
  });
});
