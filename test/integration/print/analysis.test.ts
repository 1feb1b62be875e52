import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fastMode } from '../../../src/render/fast-mode.js';
import { printMode } from '../../../src/render/print/index.js';
import { AppError } from '../../../src/shared/errors.js';
import { pdfInfo, pdfText } from '../../helpers/pdf.js';
import { fixture, harnessForSuite, job } from './harness.js';

function contentLost(selector: string, page: number) {
  return (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'content_lost');
    assert.equal(error.status, 422);
    assert.deepEqual(error.details, { selector, page });
    assert.ok(error.message.includes(`(${selector}) on page ${page}`), error.message);
    return true;
  };
}

/** Layout analysis: overflow warnings and content_lost, against the printed PDF. */
describe('print mode: layout analysis', () => {
  const harness = harnessForSuite();

  test('boxes cut sideways are reported with selector and page; the scale stays as authored', async () => {
    const { pdf, warnings } = await harness.render(printMode, job(fixture('wide-table.html')));
    assert.deepEqual(warnings, [
      { code: 'overflow', selector: 'pre.code', page: 1 },
      { code: 'overflow', selector: 'table.ledger.wide', page: 2 },
    ]);
    assert.equal((await pdfInfo(pdf)).pages, 2);
    const two = await pdfText(pdf, 2);
    assert.match(two, /FIRSTCOLUMN/);
    assert.doesNotMatch(two, /LASTCOLUMN/, 'cut, not shrunk to fit');
  });

  test('at most 20 overflow warnings, one per element and page', async () => {
    const boxes = Array.from({ length: 30 }, (_, i) => `<div class="w${i} wide" style="width:300mm">x</div>`);
    const { warnings } = await harness.render(printMode, job(boxes.join('') + boxes.join('')));
    assert.equal(warnings.length, 20);
    assert.deepEqual(warnings[0], { code: 'overflow', selector: 'div.w0.wide', page: 1 });
  });

  test('a table inside a cell taller than a page is content_lost; fast mode splits it', async () => {
    const html = fixture('table-in-cell.html');
    await assert.rejects(harness.render(printMode, job(html)), contentLost('table.line-items', 1));
    const { pdf } = await harness.render(fastMode, job(html, { mode: 'fast' }));
    assert.equal((await pdfInfo(pdf)).pages, 2);
    const all = `${await pdfText(pdf, 1)}${await pdfText(pdf, 2)}`;
    for (const line of ['Line 1 ', 'Line 40 ', 'Line 80 ']) assert.ok(all.includes(line), line);
  });

  test('a rowspan cell taller than a page is content_lost; fast mode splits it', async () => {
    const html = fixture('rowspan-tall.html');
    await assert.rejects(harness.render(printMode, job(html)), contentLost('td.group.notes', 2));
    const { pdf } = await harness.render(fastMode, job(html, { mode: 'fast' }));
    assert.equal((await pdfInfo(pdf)).pages, 3);
    assert.match(await pdfText(pdf, 3), /Note line 70/);
  });

  test('an unbreakable box taller than a page is content_lost', async () => {
    await assert.rejects(
      harness.render(printMode, job(fixture('tall-svg.html'))),
      contentLost('svg.chart', 1),
    );
  });

  test('the same nested table that fits on a page prints normally', async () => {
    const html = fixture('table-in-cell.html').replace(/<tr><td>Line (?:[2-9]\d|1\d)\b[^\n]*\n/g, '');
    const { pdf, warnings } = await harness.render(printMode, job(html));
    assert.deepEqual(warnings, []);
    assert.equal((await pdfInfo(pdf)).pages, 1);
    assert.match(await pdfText(pdf, 1), /Line 9 /);
  });
});
