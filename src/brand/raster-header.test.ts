import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import {
  gif,
  jpegApp0,
  jpegHeader,
  jpegSof,
  onePng,
  webpAnimated,
  webpLossless,
  webpLossy,
} from '../../test/helpers/raster.js';
import { readRasterHeader } from './raster-header.js';

const sizesOf = (bytes: Buffer) => readRasterHeader(bytes)?.sizes.map((s) => [s.width, s.height]);

describe('raster headers', () => {
  it('reads a PNG from its IHDR, a real one and one whose data holds a single row', () => {
    const real = PNG.sync.write(new PNG({ width: 30, height: 7 }));
    assert.deepEqual(readRasterHeader(real), { format: 'PNG', sizes: [{ width: 30, height: 7 }] });
    const lying = onePng(20_000, 20_000, 1);
    assert.ok(lying.length < 200, `${lying.length} bytes`);
    assert.deepEqual(sizesOf(lying), [[20_000, 20_000]]);
    assert.equal(readRasterHeader(lying.subarray(0, 20)), null, 'cut inside IHDR');
  });

  it('reads a JPEG from its first frame header, walking segments the way decoders do', () => {
    assert.deepEqual(readRasterHeader(jpegHeader(640, 200)), {
      format: 'JPEG',
      sizes: [{ width: 640, height: 200 }],
    });
    const soi = Buffer.from([0xff, 0xd8]);
    // Decoders skip stray bytes, fill bytes and a stuffed 0xFF00 up to the next marker; reading FF00 as a
    // segment with a length would jump over the huge frame to the small one after it.
    const hidden = Buffer.concat([
      soi,
      Buffer.from([0xff, 0x00, 0x00, 0x15]),
      jpegSof(60_000, 60_000),
      jpegSof(8, 8),
    ]);
    assert.deepEqual(sizesOf(hidden), [[60_000, 60_000]]);
    const stray = Buffer.concat([soi, jpegApp0(), Buffer.from([0x00, 0x13, 0xff, 0xff]), jpegSof(9000, 10)]);
    assert.deepEqual(sizesOf(stray), [[9000, 10]]);
    // A frame header inside a segment (an EXIF thumbnail) is skipped by its segment's length.
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0x00, 0x15]), jpegSof(60_000, 60_000)]);
    assert.deepEqual(sizesOf(Buffer.concat([soi, app1, jpegSof(50, 40)])), [[50, 40]]);
    assert.equal(readRasterHeader(jpegHeader(640, 0)), null, 'height 0: set later by a DNL segment');
    const scanFirst = Buffer.concat([soi, Buffer.from([0xff, 0xda, 0x00, 0x02]), jpegSof(50, 40)]);
    assert.equal(readRasterHeader(scanFirst), null, 'image data before any frame header');
    assert.equal(readRasterHeader(Buffer.concat([soi, Buffer.from([0xff, 0xe0, 0x00, 0x01])])), null);
  });

  it('reads a GIF’s logical screen and every frame, a huge one after small ones included', () => {
    assert.deepEqual(readRasterHeader(gif([16, 8], [[16, 8]])), {
      format: 'GIF',
      sizes: [
        { width: 16, height: 8 },
        { width: 16, height: 8 },
      ],
    });
    const huge = gif(
      [16, 16],
      [
        [16, 16],
        [16, 16],
        [65_535, 65_535],
      ],
    );
    assert.deepEqual(sizesOf(huge), [
      [16, 16],
      [16, 16],
      [16, 16],
      [65_535, 65_535],
    ]);
    assert.deepEqual(sizesOf(huge.subarray(0, huge.length - 1)), sizesOf(huge), 'no trailer');
    assert.equal(readRasterHeader(huge.subarray(0, huge.length - 3)), null, 'cut inside a frame');
    assert.equal(readRasterHeader(Buffer.concat([huge.subarray(0, 13), Buffer.from([0x99])])), null);
  });

  it('reads a WebP’s VP8, VP8L and VP8X headers and each animation frame', () => {
    assert.deepEqual(readRasterHeader(webpLossy(300, 200)), {
      format: 'WebP',
      sizes: [{ width: 300, height: 200 }],
    });
    assert.deepEqual(sizesOf(webpLossless(16_384, 3)), [[16_384, 3]]);
    assert.deepEqual(
      sizesOf(
        webpAnimated(
          [100, 100],
          [
            [100, 100],
            [20_000, 20_000],
          ],
        ),
      ),
      [
        [100, 100],
        [100, 100],
        [100, 100],
        [20_000, 20_000],
        [16_384, 16_384],
      ],
    );
    const damaged = webpLossy(300, 200);
    damaged[23] = 0;
    assert.equal(readRasterHeader(damaged), null, 'no VP8 start code');
  });

  it('answers null for unknown formats and headers cut short', () => {
    for (const bytes of ['', 'hello', '<svg/>', 'GIF89a', 'RIFF\0\0\0\0WEBP', '\x89PNG\r\n\x1a\n'])
      assert.equal(readRasterHeader(Buffer.from(bytes, 'latin1')), null, JSON.stringify(bytes));
  });
});
