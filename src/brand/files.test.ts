import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../shared/errors.js';
import { inspectFont, inspectLogo } from './files.js';
import { assertSelfContainedSvg } from './svg.js';

/** The smallest JPEG header the size reader walks: SOI, an APP0 segment, then SOF0 with the size. */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.alloc(19);
  sof.set([0xff, 0xc0, 0x00, 0x11, 0x08]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

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
