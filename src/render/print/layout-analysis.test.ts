import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../shared/errors.js';
import { contentLostError, overflowWarnings } from './layout-analysis.js';
import { printModeCss } from './page-css.js';
import { printPdfOptions } from './print-mode.js';

test('overflowWarnings keeps one warning per selector and page, at most 20', () => {
  const hits = [
    { selector: 'table.a', page: 1 },
    { selector: 'table.a', page: 1 },
    { selector: 'table.a', page: 2 },
    ...Array.from({ length: 30 }, (_, i) => ({ selector: `div.x${i}`, page: 3 })),
  ];
  const warnings = overflowWarnings(hits);
  assert.equal(warnings.length, 20);
  assert.deepEqual(warnings.slice(0, 3), [
    { code: 'overflow', selector: 'table.a', page: 1 },
    { code: 'overflow', selector: 'table.a', page: 2 },
    { code: 'overflow', selector: 'div.x0', page: 3 },
  ]);
});

test('contentLostError is a 422 content_lost naming the element and the page', () => {
  const error = contentLostError({ selector: 'td.group', page: 4, kind: 'rowspan' });
  assert.ok(error instanceof AppError);
  assert.equal(error.code, 'content_lost');
  assert.equal(error.status, 422);
  assert.match(error.message, /\(td\.group\) on page 4/);
  assert.deepEqual(error.details, { selector: 'td.group', page: 4 });
});

test('printModeCss turns the request options into the first @page rule', () => {
  const page = { mode: 'print', format: 'A4', orientation: 'landscape', margins: '10mm 15mm' } as const;
  assert.equal(printModeCss(page), '@page { size: 297mm 210mm; margin: 10mm 15mm; }');
});

test('printPdfOptions prefers the CSS page size; the polyfill path adds no margins of its own', () => {
  const page = { mode: 'print', format: 'A5', orientation: 'portrait', margins: '20mm' } as const;
  const native = printPdfOptions({ html: '<p>x</p>', page, watermark: false });
  assert.equal(native.preferCSSPageSize, true);
  assert.deepEqual(native.margin, { top: '20mm', right: '20mm', bottom: '20mm', left: '20mm' });
  const polyfill = printPdfOptions({
    html: '<style>h1{string-set:t content()}</style>',
    page,
    watermark: false,
  });
  assert.deepEqual(polyfill.margin, { top: '0', right: '0', bottom: '0', left: '0' });
});
