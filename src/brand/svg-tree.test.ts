import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { thrownAppError } from '../../test/helpers/app-error.js';
import { gif, jpegHeader, onePng, svgWithImage, webpAnimated } from '../../test/helpers/raster.js';
import { assertBoundedSvgTree, MAX_SVG_IMAGE_PIXELS, MAX_SVG_IMAGE_PIXELS_TOTAL } from './svg-tree.js';

const SVG_NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
const dataUrl = (bytes: Buffer, mime = 'image/png') => `data:${mime};base64,${bytes.toString('base64')}`;

function refusal(svg: string): { message: string; details: unknown } {
  const err = thrownAppError(() => assertBoundedSvgTree(svg), 'invalid_request', svg.slice(0, 120));
  return { message: err.message, details: err.details };
}

function assertTooBig(svg: string, size: string): void {
  const { message, details } = refusal(svg);
  assert.match(
    message,
    new RegExp(
      `embeds a ${size} image; embed images of at most ${MAX_SVG_IMAGE_PIXELS} pixels \\(4096×4096\\), or upload the logo as PNG`,
    ),
  );
  assert.deepEqual(details, {
    field: 'content_base64',
    limit: 'svg_image_pixels',
    max: MAX_SVG_IMAGE_PIXELS,
  });
}

describe('SVG embedded images', () => {
  it('refuses a 20000×20000 1-bit PNG from its header alone', () => {
    const png = onePng(20_000, 20_000, 1);
    assert.ok(png.length < 200, 'the header and one row: nothing here could decode 400 M pixels');
    assertTooBig(svgWithImage(png), '20000×20000');
    // Whatever the MIME type says: resvg sniffs text/plain, and the bytes decide the format.
    assertTooBig(svgWithImage(png, 'text/plain'), '20000×20000');
    assertTooBig(`<svg ${SVG_NS}><image xlink:href="${dataUrl(png, 'image/jpeg')}"/></svg>`, '20000×20000');
  });

  it('refuses a GIF with a huge frame after small ones, and a JPEG with a huge frame header', () => {
    assertTooBig(
      svgWithImage(
        gif(
          [16, 16],
          [
            [16, 16],
            [30_000, 30_000],
          ],
        ),
        'image/gif',
      ),
      '30000×30000',
    );
    assertTooBig(svgWithImage(jpegHeader(65_535, 65_535), 'image/jpeg'), '65535×65535');
    assertTooBig(svgWithImage(webpAnimated([64, 64], [[20_000, 20_000]]), 'image/webp'), '20000×20000');
  });

  it('refuses a data: image whose format cannot be read', () => {
    const unreadable = [
      svgWithImage(Buffer.from('not an image at all'), 'image/png'),
      svgWithImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'text/plain'),
      svgWithImage(onePng(100, 100).subarray(0, 20)),
      svgWithImage(jpegHeader(100, 0), 'image/jpeg'),
      svgWithImage('data:image/png;base64'),
      svgWithImage('data:image/png;base64,!!!!'),
    ];
    for (const svg of unreadable) {
      const { message, details } = refusal(svg);
      assert.match(message, /not a PNG, JPEG, GIF or WebP file whose size can be read; embed PNG or JPEG/);
      assert.deepEqual(details, { field: 'content_base64', limit: 'svg_image_format' });
    }
  });

  it('accepts small images and counts their pixels', () => {
    assert.equal(assertBoundedSvgTree(svgWithImage(onePng(4, 4))).pixels, 16);
    assert.equal(assertBoundedSvgTree(svgWithImage(onePng(4096, 4096, 1))).pixels, MAX_SVG_IMAGE_PIXELS);
    assert.equal(assertBoundedSvgTree(svgWithImage(jpegHeader(640, 200), 'image/jpeg')).pixels, 640 * 200);
  });

  it('counts an image once for every copy resvg makes of it and refuses past the total', () => {
    // resvg decodes an image anew for every <use> of it and keeps every decoded copy.
    const image = `<image id="i" href="${dataUrl(onePng(4096, 2048, 1))}"/>`;
    const uses = (n: number) => `<svg ${SVG_NS}>${image}${'<use href="#i"/>'.repeat(n)}</svg>`;
    assert.equal(assertBoundedSvgTree(uses(3)).pixels, 4 * 4096 * 2048);
    const { message, details } = refusal(uses(4));
    assert.match(
      message,
      new RegExp(
        `images come to ${5 * 4096 * 2048} pixels once its <use> and other references are resolved; embed at most ${MAX_SVG_IMAGE_PIXELS_TOTAL} pixels`,
      ),
    );
    assert.deepEqual(details, {
      field: 'content_base64',
      limit: 'svg_image_pixels_total',
      max: MAX_SVG_IMAGE_PIXELS_TOTAL,
    });
    // An <feImage> is decoded for every element its filter applies to.
    const filter = `<filter id="f"><feImage href="${dataUrl(onePng(4096, 4096, 1))}"/></filter>`;
    const rects = (n: number) =>
      `<svg ${SVG_NS}><defs>${filter}</defs>${'<rect filter="url(#f)"/>'.repeat(n)}</svg>`;
    assert.equal(
      assertBoundedSvgTree(rects(1)).pixels,
      2 * MAX_SVG_IMAGE_PIXELS,
      'the definition and its use',
    );
    assert.equal(refusal(rects(2)).message.includes('images come to'), true);
  });

  it('bounds CSS url(data:) images too, though resvg draws none of them', () => {
    const huge = dataUrl(onePng(20_000, 20_000, 1));
    assertTooBig(`<svg ${SVG_NS}><rect style="fill: url('${huge}')"/></svg>`, '20000×20000');
    assertTooBig(`<svg ${SVG_NS}><style>rect { fill: url(${huge}) }</style><rect/></svg>`, '20000×20000');
    assertTooBig(`<svg ${SVG_NS}><style><![CDATA[rect{fill:url("${huge}")}]]></style></svg>`, '20000×20000');
  });

  it('reads hrefs as resvg does, entities decoded: a data: image is bounded, anything but #id or data: refused', () => {
    const body = onePng(20_000, 20_000, 1).toString('base64');
    assertTooBig(`<svg ${SVG_NS}><image href="da&#10;ta:image/png;base64,${body}"/></svg>`, '20000×20000');
    assertTooBig(`<svg ${SVG_NS}><image href="data:image/png;base64,&#10;${body}"/></svg>`, '20000×20000');
    for (const href of [
      '&#47;etc&#47;hostname',
      'logo.png',
      'file:///etc/passwd',
      'http://127.0.0.1/a.png',
      '',
    ])
      assert.match(
        refusal(`<svg ${SVG_NS}><image href="${href}"/></svg>`).message,
        /may not reference external resources/,
        href,
      );
    assert.equal(assertBoundedSvgTree(`<svg ${SVG_NS}><use xlink:href=" #a"/><g id="a"/></svg>`).nodes, 4);
  });
});
