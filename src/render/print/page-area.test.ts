import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PageOptions } from '../types.js';
import { expectedPageArea } from './page-area.js';

const page: PageOptions = { mode: 'print', format: 'A4', orientation: 'portrait', margins: '20mm' };
const mm = (n: number) => Math.round((n * 96) / 25.4);

test('expectedPageArea: the request options without @page rules', () => {
  assert.deepEqual(expectedPageArea({ html: '<p>x</p>', page }), { width: mm(170), height: mm(257) });
});

test("expectedPageArea: the document's @page wins, margin boxes and named pages are skipped", () => {
  const html = `<style>
    @page { size: A5 landscape; @top-center { content: "x"; margin: 99mm } margin: 10mm 15mm }
    @page wide { size: A3 } @page :first { margin: 0 } /* @page { size: A3 } */
  </style><p>x</p>`;
  assert.deepEqual(expectedPageArea({ html, page }), { width: mm(180), height: mm(128) });
});

test('expectedPageArea: the job CSS sits between the request and the document', () => {
  const area = expectedPageArea({
    html: '<style>@page{margin-left:30mm}</style>',
    css: '@page { margin: 5mm }',
    page,
  });
  assert.deepEqual(area, { width: mm(175), height: mm(287) });
});
