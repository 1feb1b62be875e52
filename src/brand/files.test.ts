import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { jpegHeader, jpegSof, onePng, svgWithImage } from '../../test/helpers/raster.js';
import { isAppError } from '../shared/errors.js';
import { inspectFont, inspectLogo } from './files.js';
import { assertSelfContainedSvg } from './svg.js';

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (err) {
    assert.ok(isAppError(err) && err.code === 'invalid_request', String(err));
    return err.message;
  }
  assert.fail('expected a refusal');
}

describe('brand files', () => {
  it('reads a JPEG logo by its start-of-frame size and refuses one over 8192 px', async () => {
    const ok = await inspectLogo(jpegHeader(640, 200));
    assert.deepEqual([ok.contentType, ok.ext], ['image/jpeg', 'jpg']);
    assert.match(await refusal(inspectLogo(jpegHeader(9000, 10))), /9000×10 px; at most 8192/);
    // A stuffed 0xFF00 is no segment: read as one, its "length" would skip the frame decoders see.
    const hidden = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x00, 0x15]),
      jpegSof(60_000, 60_000),
      jpegSof(8, 8),
    ]);
    assert.match(await refusal(inspectLogo(hidden)), /60000×60000 px; at most 8192/);
  });

  it('rasterises an SVG embedding a small PNG, and refuses one embedding a 20000×20000 PNG before resvg runs', async () => {
    const red = new PNG({ width: 4, height: 2 });
    for (let i = 0; i < red.data.length; i += 4) red.data.set([255, 0, 0, 255], i);
    const ok = await inspectLogo(Buffer.from(svgWithImage(PNG.sync.write(red))));
    assert.deepEqual([ok.contentType, ok.ext], ['image/png', 'png']);
    const png = PNG.sync.read(ok.bytes);
    assert.deepEqual([png.width, png.height], [1024, 512]);
    assert.deepEqual([...png.data.subarray(0, 4)], [255, 0, 0, 255], 'the embedded image is drawn');
    const bomb = Buffer.from(svgWithImage(onePng(20_000, 20_000, 1)));
    assert.match(
      await refusal(inspectLogo(bomb)),
      /embeds a 20000×20000 image; embed images of at most 16777216 pixels/,
    );
  });

  it('names the accepted font formats for WOFF 1, collections and unknown magic', async () => {
    const pad = Buffer.alloc(64);
    assert.match(await refusal(inspectFont(Buffer.concat([Buffer.from('wOFF'), pad]))), /WOFF 1/);
    assert.match(await refusal(inspectFont(Buffer.concat([Buffer.from('ttcf'), pad]))), /collections/);
    assert.match(
      await refusal(inspectFont(Buffer.concat([Buffer.from('wOF2'), pad]))),
      /WOFF2 font is inconsistent/,
    );
  });

  it('accepts internal references in an SVG and refuses every external one', () => {
    const ok = [
      '<svg><use href="#a"/><rect style="fill:url(#g)"/></svg>',
      '<svg><image xlink:href="data:image/png;base64,AAAA"/></svg>',
    ];
    for (const svg of ok) assertSelfContainedSvg(svg);
    const refused = [
      '<svg><use href="other.svg#a"/></svg>',
      '<svg><image href="data:image/svg+xml;base64,AAAA"/></svg>',
      "<svg><image a:href='//example.com/x.png'/></svg>",
      '<?xml-stylesheet href="http://example.com/s.css"?><svg/>',
      '<svg><style>@import "x.css";</style></svg>',
      '<svg><rect fill="url( http://example.com/p )"/></svg>',
    ];
    for (const svg of refused) assert.throws(() => assertSelfContainedSvg(svg), /SVG logos/, svg);
  });
});
