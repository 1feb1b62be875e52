import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageOptionsToPdfOptions, paperInches, toPrintToPdfParams } from './paper.js';

const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;

describe('paper sizes', () => {
  const table: Array<[Parameters<typeof paperInches>[0], number, number]> = [
    ['A4', 210 / 25.4, 297 / 25.4],
    ['A5', 148 / 25.4, 210 / 25.4],
    ['Letter', 8.5, 11],
    ['Legal', 8.5, 14],
    [{ width: '100mm', height: '6in' }, 100 / 25.4, 6],
  ];
  for (const [format, w, h] of table) {
    it(`${JSON.stringify(format)} portrait and landscape`, () => {
      const p = paperInches(format, 'portrait');
      assert.ok(close(p.width, w) && close(p.height, h), JSON.stringify(p));
      if (typeof format === 'string') {
        const l = paperInches(format, 'landscape');
        assert.ok(close(l.width, h) && close(l.height, w), JSON.stringify(l));
      }
    });
  }
});

describe('Chromium print parameters', () => {
  it('turns landscape by swapping the paper, not with CDP landscape', () => {
    const options = pageOptionsToPdfOptions(
      { mode: 'fast', format: 'Letter', orientation: 'landscape', margins: '1in 0.5in' },
      false,
    );
    const params = toPrintToPdfParams(options);
    assert.equal(params.paperWidth, 11);
    assert.equal(params.paperHeight, 8.5);
    assert.equal(params.landscape, false);
    assert.deepEqual(
      [params.marginTop, params.marginRight, params.marginBottom, params.marginLeft],
      [1, 0.5, 1, 0.5],
    );
    assert.equal(params.printBackground, true);
    assert.equal(params.preferCSSPageSize, false);
  });

  it('reads playwright-style options from other strategies (format names, px numbers, landscape)', () => {
    const params = toPrintToPdfParams({
      format: 'a4',
      landscape: true,
      margin: { top: '96', right: '0', bottom: '10mm', left: '72pt' },
      preferCSSPageSize: true,
      printBackground: false,
    });
    assert.ok(close(params.paperWidth, 297 / 25.4) && close(params.paperHeight, 210 / 25.4));
    assert.ok(close(params.marginTop, 1) && params.marginRight === 0 && close(params.marginLeft, 1));
    assert.equal(params.preferCSSPageSize, true);
  });
});
