import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Renderer } from '../../../src/render/index.js';
import { pageSizes, pdfInfo, pdfText, pdfWords } from '../../helpers/pdf.js';
import { job, startRenderer } from './helpers.js';

const MM = 72 / 25.4;
// Chromium snaps the paper to whole device pixels, so its A4 is 595.92 × 841.92 pt (exact: 595.28 × 841.89).
const TOLERANCE_PT = 1;

let renderer: Renderer;
before(async () => {
  renderer = await startRenderer({ renderPoolSize: 2 });
});
after(() => renderer.close());

describe('page sizes in points', () => {
  const named: Array<['A4' | 'A5' | 'Letter' | 'Legal', number, number]> = [
    ['A4', 210 * MM, 297 * MM],
    ['A5', 148 * MM, 210 * MM],
    ['Letter', 612, 792],
    ['Legal', 612, 1008],
  ];
  for (const [format, w, h] of named) {
    for (const orientation of ['portrait', 'landscape'] as const) {
      it(`${format} ${orientation}`, async () => {
        const result = await renderer.render(job('<p>size</p>', { format, orientation }));
        const [size] = await pageSizes(result.pdf);
        const [ew, eh] = orientation === 'portrait' ? [w, h] : [h, w];
        assert.ok(size, 'no page');
        assert.ok(Math.abs(size.width - ew) < TOLERANCE_PT, `width ${size.width} ≠ ${ew}`);
        assert.ok(Math.abs(size.height - eh) < TOLERANCE_PT, `height ${size.height} ≠ ${eh}`);
      });
    }
  }

  it('custom {width, height} in mixed units', async () => {
    const result = await renderer.render(job('<p>custom</p>', { format: { width: '100mm', height: '5in' } }));
    const [size] = await pageSizes(result.pdf);
    assert.ok(size && Math.abs(size.width - 100 * MM) < TOLERANCE_PT, JSON.stringify(size));
    assert.ok(size && Math.abs(size.height - 360) < TOLERANCE_PT, JSON.stringify(size));
  });

  it('the request format wins over a document @page size in fast mode', async () => {
    const html = '<style>@page { size: A5 }</style><p>asks for A5</p>';
    const [size] = await pageSizes((await renderer.render(job(html, { format: 'Letter' }))).pdf);
    assert.ok(
      size && Math.abs(size.width - 612) < TOLERANCE_PT && Math.abs(size.height - 792) < TOLERANCE_PT,
    );
  });
});

describe('margins', () => {
  const css =
    'html,body{margin:0;padding:0;font:12pt/1 "Liberation Sans"} .row{display:flex;justify-content:space-between}';

  it('four margins move the text box (top right bottom left)', async () => {
    const html = '<div class="row"><span>LEFTWORD</span><span>RIGHTWORD</span></div>';
    const result = await renderer.render(job(html, { margins: '10mm 30mm 20mm 40mm' }, { css }));
    const [size] = await pageSizes(result.pdf);
    const list = await pdfWords(result.pdf);
    const left = list.find((w) => w.text === 'LEFTWORD');
    const right = list.find((w) => w.text === 'RIGHTWORD');
    assert.ok(size && left && right, JSON.stringify(list));
    assert.ok(Math.abs(left.xMin - 40 * MM) < 1.5, `left x ${left.xMin}`);
    assert.ok(Math.abs(right.xMax - (size.width - 30 * MM)) < 1.5, `right x ${right.xMax}`);
    assert.ok(Math.abs(left.yMin - 10 * MM) < 3, `top y ${left.yMin}`);
  });

  it('the bottom margin ends the first page', async () => {
    const html = Array.from({ length: 120 }, (_, i) => `<div>LINE${i}</div>`).join('');
    const result = await renderer.render(job(html, { margins: '0 0 50mm 0' }, { css }));
    const [size] = await pageSizes(result.pdf);
    const first = (await pdfWords(result.pdf)).filter((w) => w.page === 1);
    const lowest = Math.max(...first.map((w) => w.yMax));
    assert.ok(size && result.pages >= 2);
    assert.ok(lowest <= size.height - 50 * MM + 0.5, `text at ${lowest} runs into the bottom margin`);
    assert.ok(lowest > size.height - 50 * MM - 20, `page ended early at ${lowest}`);
  });

  it('defaults to 20mm on every side', async () => {
    const result = await renderer.render(
      job('<div class="row"><span>L</span><span>R</span></div>', {}, { css }),
    );
    const list = await pdfWords(result.pdf);
    assert.ok(Math.abs((list[0]?.xMin ?? 0) - 20 * MM) < 1.5, JSON.stringify(list[0]));
  });
});

describe('documents and CSS', () => {
  it('renders a fragment and a full document', async () => {
    const fragment = await renderer.render(job('<p>Hello fragment</p>'));
    const full = await renderer.render(
      job('<!DOCTYPE html><html><head><title>t</title></head><body><p>Hello full</p></body></html>'),
    );
    assert.match(await pdfText(fragment.pdf), /Hello fragment/);
    assert.match(await pdfText(full.pdf), /Hello full/);
    assert.equal(fragment.mode, 'fast');
  });

  it('places the CSS before the document: its rules apply, the document’s own rules win ties', async () => {
    const html =
      '<!DOCTYPE html><html><head><style>.shown{display:block}</style></head><body><p class="gone">GONE</p><p class="shown">SHOWN</p></body></html>';
    const result = await renderer.render(job(html, {}, { css: '.gone{display:none} .shown{display:none}' }));
    const text = await pdfText(result.pdf);
    assert.doesNotMatch(text, /GONE/);
    assert.match(text, /SHOWN/);
  });

  it('counts pages like pdfinfo on the 10-page report fixture', async () => {
    const html = readFileSync(new URL('../../../bench/fixtures/report-10p.html', import.meta.url), 'utf8');
    const result = await renderer.render(job(html));
    assert.equal(result.pages, (await pdfInfo(result.pdf)).pages);
    assert.ok(result.pages >= 9 && result.pages <= 11, `report has ${result.pages} pages`);
    assert.equal(result.blockedCount, 0);
  });
});
