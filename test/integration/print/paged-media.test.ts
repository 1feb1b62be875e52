import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { printMode } from '../../../src/render/print/index.js';
import { pdfFonts, pdfInfo, pdfText } from '../../helpers/pdf.js';
import { fixture, harnessForSuite, job, sizesInPoints } from './harness.js';

/** Chromium's native paged media in print mode, asserted on the printed PDF (poppler). */
describe('print mode: native paged media', () => {
  const harness = harnessForSuite();

  test('20-page report: "Page N of 20" on page N and the table header on every page', async () => {
    const { pdf, warnings } = await harness.render(printMode, job(fixture('report-20p.html')));
    assert.equal((await pdfInfo(pdf)).pages, 20);
    assert.deepEqual(warnings, []);
    assert.ok((await sizesInPoints(pdf)).every((size) => size === '595x842'));
    for (let page = 1; page <= 20; page++) {
      const text = await pdfText(pdf, page);
      assert.match(text, new RegExp(`Page ${page} of 20\\b`), `footer on page ${page}`);
      assert.match(text, /No\.\s+Region\s+Account\s+Balance/, `header row on page ${page}`);
      assert.match(text, /Annual ledger 2026/);
    }
    assert.match(await pdfText(pdf, 20), /1090\s+Region/);
  });

  test('named first page, left/right pages and a named landscape page', async () => {
    const { pdf } = await harness.render(printMode, job(fixture('named-first-page.html')));
    assert.deepEqual(await sizesInPoints(pdf), ['595x842', '595x842', '842x595']);
    const [one, two, three] = await Promise.all([1, 2, 3].map((p) => pdfText(pdf, p)));
    assert.match(one!, /Northwind Quarterly Report/);
    assert.doesNotMatch(two!, /Northwind Quarterly Report/);
    assert.match(two!, /Northwind Digital/, ':left margin box on page 2');
    assert.match(three!, /Q3 2026/, ':right margin box on page 3');
    assert.match(three!, /Appendix: figures/);
    assert.match(three!, /Change[\s\S]*\+12%/, 'the landscape page is not cut at the portrait width');
  });

  test('break-before, break-inside: avoid and break-after', async () => {
    const { pdf } = await harness.render(printMode, job(fixture('page-breaks.html')));
    assert.equal((await pdfInfo(pdf)).pages, 4);
    assert.deepEqual([...new Set(await sizesInPoints(pdf))], ['420x595'], 'the document @page size A5 wins');
    assert.doesNotMatch(await pdfText(pdf, 1), /KEEPBOX/);
    assert.match(await pdfText(pdf, 2), /KEEPBOX begins[\s\S]*KEEPBOX ends/);
    assert.match(await pdfText(pdf, 3), /Beta section/);
    assert.match(await pdfText(pdf, 4), /Gamma paragraph/);
  });

  test('request page options apply when the document sets no @page size', async () => {
    const html = '<p>Letter landscape from the request</p>';
    const { pdf } = await harness.render(
      printMode,
      job(html, { format: 'Letter', orientation: 'landscape' }),
    );
    assert.deepEqual(await sizesInPoints(pdf), ['792x612']);
    const custom = await harness.render(
      printMode,
      job(html, { format: { width: '100mm', height: '150mm' } }),
    );
    assert.deepEqual(await sizesInPoints(custom.pdf), ['283x425']);
  });

  test("the document's @page size wins over the request's format", async () => {
    const html = '<style>@page { size: A5 landscape; }</style><p>A5 landscape from the document</p>';
    const { pdf } = await harness.render(printMode, job(html, { format: 'Letter' }));
    assert.deepEqual(await sizesInPoints(pdf), ['595x420']);
  });

  test('CJK text is laid out with the installed Noto CJK fonts and stays extractable', async () => {
    const { pdf } = await harness.render(printMode, job(fixture('cjk.html')));
    const text = await pdfText(pdf, 1);
    for (const phrase of ['日本語の文章です', '感谢您的订单', '주문해 주셔서', 'コンサルティング']) {
      assert.ok(text.includes(phrase), `missing ${phrase}`);
    }
    assert.match(text, /1\s*\/\s*1/, 'page counter margin box');
    // Chromium embeds Noto CJK (OpenType/CFF) as Type 3 fonts (research/dependencies.md): no names to check.
    assert.ok((await pdfFonts(pdf)).length > 0);
  });

  test('a web font from a data: URI is loaded before printing', async () => {
    const { pdf } = await harness.render(printMode, job(fixture('webfont-data-uri.html')));
    assert.ok((await pdfFonts(pdf)).includes('LiberationMono-Italic'), (await pdfFonts(pdf)).join(','));
    assert.match(await pdfText(pdf, 1), /Set in the embedded web font/);
  });

  test('unavailable fonts fall back to installed faces', async () => {
    const { pdf, warnings } = await harness.render(printMode, job(fixture('missing-font.html')));
    assert.deepEqual(warnings, []);
    const text = await pdfText(pdf, 1);
    assert.match(text, /Fallback heading/);
    assert.match(text, /Grüße, Ελληνικά, Кириллица/);
    assert.ok((await pdfFonts(pdf)).length > 0);
  });
});
