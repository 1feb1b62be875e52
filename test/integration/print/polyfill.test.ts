import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fastMode } from '../../../src/render/fast-mode.js';
import { printMode } from '../../../src/render/print/index.js';
import { pdfInfo, pdfText } from '../../helpers/pdf.js';
import { fixture, harnessForSuite, job } from './harness.js';

/** Documents that use running elements or target-counter are laid out by Paged.js (local copy). */
describe('print mode: polyfill features', () => {
  const harness = harnessForSuite();

  test('invoice: running header, "Page X of Y" footer and the table header on every page', async () => {
    const { pdf, warnings } = await harness.render(printMode, job(fixture('invoice-running.html')));
    assert.deepEqual(warnings, []);
    const pages = (await pdfInfo(pdf)).pages;
    assert.equal(pages, 3);
    const texts = await Promise.all(Array.from({ length: pages }, (_, i) => pdfText(pdf, i + 1)));
    texts.forEach((text, i) => {
      assert.match(text, /Northwind Digital GmbH/, `running header on page ${i + 1}`);
      assert.match(text, new RegExp(`Page ${i + 1} of 3\\b`), `footer on page ${i + 1}`);
      assert.match(text, /Pos\s+Description\s+Qty\s+Amount EUR/, `table header on page ${i + 1}`);
    });
    // Every item row is printed exactly once (Paged.js is known to drop rows: pagedjs issue #351).
    const all = texts.join('\n');
    for (let row = 1; row <= 100; row++) {
      const matches = all.match(new RegExp(`#${row}\\s`, 'g')) ?? [];
      assert.equal(matches.length, 1, `item row ${row}`);
    }
    assert.match(texts[2]!, /Total due: EUR 31,415\.00/);
  });

  test('the polyfill loaded once per page lays out each later document afresh (same pages, one header each)', async () => {
    // Pool of one page: these renders share the page, and Paged.js is evaluated in it only once.
    const first = await harness.render(printMode, job(fixture('invoice-running.html')));
    await harness.render(printMode, job(fixture('toc-target-counter.html')));
    const again = await harness.render(printMode, job(fixture('invoice-running.html')));
    assert.equal((await pdfInfo(again.pdf)).pages, (await pdfInfo(first.pdf)).pages);
    for (let page = 1; page <= (await pdfInfo(again.pdf)).pages; page++) {
      const text = await pdfText(again.pdf, page);
      assert.equal(text, await pdfText(first.pdf, page), `page ${page} as on the first run`);
      assert.equal(text.match(/Pos\s+Description\s+Qty/g)?.length, 1, `one table header on page ${page}`);
    }
  });

  test('fast mode prints the same invoice without the running header in the margin', async () => {
    const { pdf } = await harness.render(fastMode, job(fixture('invoice-running.html')));
    assert.doesNotMatch(await pdfText(pdf, 2), /Northwind Digital GmbH/);
  });

  test('table of contents with target-counter names the page each chapter starts on', async () => {
    const { pdf } = await harness.render(printMode, job(fixture('toc-target-counter.html')));
    assert.equal((await pdfInfo(pdf)).pages, 5);
    const toc = await pdfText(pdf, 1);
    const texts = new Map(
      await Promise.all([2, 3, 4, 5].map(async (page) => [page, await pdfText(pdf, page)] as const)),
    );
    const startPage = (heading: string) =>
      [...texts].find(([, text]) => new RegExp(`^\\s*${heading}\\s*$`, 'm').test(text))?.[0];
    for (const [entry, heading] of [
      ['Introduction', 'Introduction'],
      ['Methods', 'Methods'],
      ['Results', 'Results'],
    ] as const) {
      const listed = new RegExp(`${entry} \\.+ page (\\d+)`).exec(toc)?.[1];
      assert.equal(Number(listed), startPage(heading), `${entry} in the TOC`);
    }
    assert.match(toc, /Results \.+ page 5/);
  });
});
