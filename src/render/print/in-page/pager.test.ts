import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pageAt } from './pager.js';

const cases: { name: string; breaks: number[]; y: number; page: number }[] = [
  { name: 'top of the document', breaks: [], y: 0, page: 1 },
  { name: 'just before the first page end', breaks: [], y: 999, page: 1 },
  { name: 'second page', breaks: [], y: 1000, page: 2 },
  { name: 'a break at the very top makes no blank page', breaks: [0], y: 10, page: 1 },
  { name: 'after a forced break on page 1', breaks: [300], y: 310, page: 2 },
  { name: 'after a forced break on page 2', breaks: [1300], y: 1310, page: 3 },
  { name: 'two breaks', breaks: [300, 600], y: 1700, page: 4 },
  { name: 'content before a later break', breaks: [300, 600], y: 450, page: 2 },
];

for (const c of cases) {
  test(`pageAt: ${c.name}`, () => {
    assert.equal(pageAt({ contentHeight: 1000, breaks: c.breaks }, c.y), c.page);
  });
}
