import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeThumbnail, type Renderer, WATERMARK_TEXT } from '../../../src/render/index.js';
import { pagePixels, pdfText, pdfTool } from '../../helpers/pdf.js';
import { job, startRenderer } from './helpers.js';

let renderer: Renderer;
before(async () => {
  renderer = await startRenderer();
});
after(() => renderer.close());

const threePages = ['ONE', 'TWO', 'THREE']
  .map((t) => `<div style="break-after:page">PAGE ${t}</div>`)
  .join('');

/** Share of a page's pixels in the watermark's red (documents here are black on white). */
function redShare(page: { rgb: Buffer }): number {
  let red = 0;
  const pixels = page.rgb.length / 3;
  for (let i = 0; i < page.rgb.length; i += 3) {
    const [r, g, b] = [page.rgb[i] ?? 0, page.rgb[i + 1] ?? 0, page.rgb[i + 2] ?? 0];
    if (r > 180 && r - g > 35 && r - b > 35) red += 1;
  }
  return red / pixels;
}

describe('test-document watermark', () => {
  it('is on every page of a watermarked PDF and on no page of a normal one', async () => {
    const marked = await renderer.render(job(threePages, {}, { watermark: true }));
    const plain = await renderer.render(job(threePages));
    assert.equal(marked.pages, 3);
    const markedPages = await pagePixels(marked.pdf);
    const plainPages = await pagePixels(plain.pdf);
    assert.equal(markedPages.length, 3);
    for (const [i, page] of markedPages.entries())
      assert.ok(redShare(page) > 0.01, `page ${i + 1}: no watermark`);
    for (const [i, page] of plainPages.entries()) assert.equal(redShare(page), 0, `page ${i + 1} is marked`);
    // The document's text is still there under the mark.
    assert.match(await pdfText(marked.pdf), /PAGE ONE[\s\S]*PAGE TWO[\s\S]*PAGE THREE/);
  });

  it('crosses the page diagonally (both halves of the page, both sides)', async () => {
    const [page] = await pagePixels((await renderer.render(job('<p>x</p>', {}, { watermark: true }))).pdf);
    assert.ok(page);
    const quadrant = (qx: number, qy: number) => {
      let red = 0;
      for (let y = Math.floor((qy * page.height) / 2); y < ((qy + 1) * page.height) / 2; y++) {
        for (let x = Math.floor((qx * page.width) / 2); x < ((qx + 1) * page.width) / 2; x++) {
          const i = (y * page.width + x) * 3;
          if ((page.rgb[i] ?? 0) > 180 && (page.rgb[i] ?? 0) - (page.rgb[i + 1] ?? 0) > 35) red += 1;
        }
      }
      return red;
    };
    // Bottom-left to top-right: the lower-left and upper-right quadrants carry the mark.
    assert.ok(quadrant(0, 1) > 50 && quadrant(1, 0) > 50, 'not on the rising diagonal');
    assert.ok(quadrant(0, 0) < quadrant(0, 1) && quadrant(1, 1) < quadrant(1, 0), 'not diagonal');
  });

  it('cannot be hidden by the document’s CSS', async () => {
    const css = `html, body { background: #fff !important; }
      body::after { content: ''; position: fixed; inset: 0; background: #fff; z-index: 2147483647; }
      * { visibility: hidden !important; }`;
    const result = await renderer.render(job(threePages, {}, { css, watermark: true }));
    for (const page of await pagePixels(result.pdf)) assert.ok(redShare(page) > 0.01);
  });

  it('is on every page in print mode too, as extractable text, whatever the document’s CSS and script do', async () => {
    // Chromium prints the mark from the page's header template, a document of its own: the document's
    // overlays, root opacity, pseudo-elements and scripts cannot reach it.
    const css = `html { opacity: 0.01 !important; }
      html::after { content: ''; position: fixed; inset: 0; background: #fff; z-index: 2147483647; }`;
    const script = `<script>new MutationObserver(() => document.querySelectorAll('body > :not(div)')
      .forEach((e) => e.remove())).observe(document.documentElement, { childList: true, subtree: true });</script>`;
    for (const mode of ['fast', 'print'] as const) {
      const result = await renderer.render(job(threePages + script, { mode }, { css, watermark: true }));
      const pages = await pagePixels(result.pdf);
      assert.ok(pages.length >= 3, `${mode}: ${pages.length} pages`);
      for (const [i, page] of pages.entries())
        assert.ok(redShare(page) > 0.01, `${mode} page ${i + 1}: no mark`);
      const text = (await pdfText(result.pdf)).replace(/\s+/g, '');
      assert.equal(
        text.split(WATERMARK_TEXT.replace(/\s+/g, '')).length - 1,
        pages.length,
        `${mode}: ${text}`,
      );
    }
  });

  it('uses an embedded font (no standard-14 font that PDF/A forbids)', async () => {
    const list = (
      await pdfTool('pdffonts', [], (await renderer.render(job('<p>fonts</p>', {}, { watermark: true }))).pdf)
    ).stdout;
    const rows = list
      .split('\n')
      .slice(2)
      .filter((l) => l.trim() !== '');
    assert.ok(
      rows.some((r) => r.includes('LiberationSans-Bold')),
      list,
    );
    for (const row of rows) assert.match(row, /\byes\b/, `not embedded: ${row}`);
  });
});

describe('thumbnails', () => {
  it('are a 480 px wide PNG of page 1', async () => {
    const result = await renderer.render(job(threePages));
    const png = await makeThumbnail(result.pdf);
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    assert.equal(width, 480);
    assert.ok(Math.abs(height - Math.round((480 * 297) / 210)) <= 2, `height ${height}`);
  });

  it('fail cleanly for bytes that are not a PDF', async () => {
    await assert.rejects(makeThumbnail(Buffer.from('not a pdf')), /pdftoppm failed/);
  });
});
