import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { damagedBytes, noise, type Rng, rng } from '../../test/helpers/random.js';
import { gif, jpegHeader, onePng, webpAnimated, webpLossless, webpLossy } from '../../test/helpers/raster.js';
import { isAppError } from '../shared/errors.js';
import { decodeDataUrl } from './data-url.js';
import { largestSize, readRasterHeader } from './raster-header.js';
import { assertBoundedSvgTree, MAX_SVG_IMAGE_PIXELS } from './svg-tree.js';

const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 31);
const RUNS = Number(process.env.QUIRE_RASTER_FUZZ_RUNS ?? 400);

const BASES = [
  PNG.sync.write(new PNG({ width: 3, height: 2 })),
  onePng(20_000, 20_000, 1),
  jpegHeader(640, 200),
  gif(
    [16, 16],
    [
      [16, 16],
      [300, 200],
    ],
  ),
  webpLossy(300, 200),
  webpLossless(5000, 5000),
  webpAnimated(
    [64, 64],
    [
      [64, 64],
      [8000, 8000],
    ],
  ),
];
const MAGICS = ['\x89PNG\r\n\x1a\n\0\0\0\rIHDR', '\xff\xd8\xff', 'GIF89a', 'RIFF\0\0\0\0WEBPVP8X'];
const MIMES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'text/plain', 'IMAGE/PNG'];

/** Image bytes biased towards almost-valid headers: a real one damaged, or a known magic before noise. */
function randomImage(r: Rng): Buffer {
  if (r.next() < 0.2) return Buffer.concat([Buffer.from(r.pick(MAGICS), 'latin1'), noise(r, 0, 64)]);
  return damagedBytes(r, r.pick(BASES), 40);
}

/** The bytes as a data: URL spelled one of the ways resvg reads: base64 broken by whitespace, or percent-encoded. */
function randomDataUrl(r: Rng, bytes: Buffer): string {
  const mime = r.pick(MIMES);
  if (r.next() < 0.3)
    return `data:${mime},${[...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`;
  const base64 = bytes
    .toString('base64')
    .replace(/.{1,60}/g, (line) => (r.next() < 0.3 ? `${line}\n ` : line));
  return `data:${mime};base64,${base64}`;
}

describe('fuzz: raster headers and embedded images on random and damaged bytes', () => {
  it(`reads ${RUNS} damaged images (seed ${SEED}) without throwing: a format with positive sizes, or null`, () => {
    const r = rng(SEED);
    for (let n = 0; n < RUNS; n++) {
      const bytes = randomImage(r);
      const header = readRasterHeader(bytes);
      if (!header) continue;
      assert.ok(['PNG', 'JPEG', 'GIF', 'WebP'].includes(header.format));
      assert.ok(header.sizes.length > 0, `#${n}`);
      for (const { width, height } of header.sizes)
        assert.ok(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1, `#${n}`);
    }
  });

  it(`checks ${RUNS} SVGs embedding them (seed ${SEED}): accepted with the header's pixels, or refused with invalid_request, the field and the limit`, () => {
    const r = rng(SEED + 1);
    const seen = new Set<string>();
    for (let n = 0; n < RUNS; n++) {
      const bytes = randomImage(r);
      const svg = `<svg xmlns="http://www.w3.org/2000/svg"><image href="${randomDataUrl(r, bytes)}"/></svg>`;
      const header = readRasterHeader(bytes);
      const largest = header && largestSize(header.sizes);
      const pixels = largest ? largest.width * largest.height : 0;
      const expected = !header
        ? 'svg_image_format'
        : pixels > MAX_SVG_IMAGE_PIXELS
          ? 'svg_image_pixels'
          : null;
      try {
        const cost = assertBoundedSvgTree(svg);
        assert.equal(expected, null, `#${n} accepted`);
        assert.equal(cost.pixels, pixels, `#${n}`);
      } catch (err) {
        assert.ok(isAppError(err) && err.code === 'invalid_request', `#${n}: ${String(err)}`);
        assert.equal(err.details?.field, 'content_base64', `#${n}`);
        assert.equal(err.details?.limit, expected, `#${n}: ${err.message}`);
      }
      seen.add(expected ?? 'accepted');
    }
    assert.deepEqual([...seen].sort(), ['accepted', 'svg_image_format', 'svg_image_pixels'], 'every outcome');
  });

  it(`decodes ${RUNS} random strings as data: URLs (seed ${SEED}) without throwing`, () => {
    const r = rng(SEED + 2);
    for (let n = 0; n < RUNS; n++) {
      const prefix = r.pick(['data:', ' DATA:', 'd\na\tta:', 'data:;base64,', 'data:image/png;base64,', '']);
      decodeDataUrl(prefix + noise(r, 0, 80).toString('latin1'));
    }
  });
});
