import assert from 'node:assert/strict';
import { test } from 'node:test';
import { needsPolyfill, polyfillFeatures } from './features.js';

const cases: { name: string; css: string; html?: string; expected: string[] }[] = [
  {
    name: 'plain @page margin boxes stay native',
    css: '@page { @bottom-center { content: counter(page) } }',
    expected: [],
  },
  { name: 'running element', css: '.h { position: running(header) }', expected: ['running elements'] },
  {
    name: 'element() in a margin box',
    css: '@page { @top-center { content: element(header) } }',
    expected: ['element()'],
  },
  { name: 'string-set', css: 'h2 { string-set: chapter content() }', expected: ['string-set'] },
  { name: 'string()', css: '@page { @top-left { content: string(chapter) } }', expected: ['string()'] },
  {
    name: 'target-counter',
    css: 'a::after { content: target-counter(attr(href), page) }',
    expected: ['target-counter'],
  },
  {
    name: 'features inside the HTML style element',
    css: '',
    html: '<style>a::after{content:target-text(attr(href))}</style>',
    expected: ['target-counter'],
  },
  {
    name: 'prose mentioning the words is not a feature',
    css: '',
    html: '<p>element(x) and string(y)</p>',
    expected: [],
  },
];

for (const c of cases) {
  test(`polyfillFeatures: ${c.name}`, () => {
    const job = { html: c.html ?? '<p>x</p>', css: c.css };
    assert.deepEqual(polyfillFeatures(job), c.expected);
    assert.equal(needsPolyfill(job), c.expected.length > 0);
  });
}
