import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeDocument, isFullDocument } from './html-document.js';

describe('composeDocument', () => {
  it('recognises full documents', () => {
    for (const html of [
      '<!DOCTYPE html><p>',
      '  <!doctype html>',
      '<html><body>',
      '\uFEFF<!-- c --> <HTML lang="en">',
    ]) {
      assert.equal(isFullDocument(html), true, html);
    }
    for (const html of ['<p>hi</p>', 'text <html>', '<head><title>t</title></head>', '<htmlx>']) {
      assert.equal(isFullDocument(html), false, html);
    }
  });

  it('wraps a fragment in a standards-mode document with the CSS first', () => {
    assert.equal(
      composeDocument('<p>Hi</p>', 'p{color:red}'),
      '<!DOCTYPE html><html><head><meta charset="utf-8"><style>p{color:red}</style></head><body><p>Hi</p></body></html>',
    );
  });

  it('puts the CSS first in the head of a full document, so the document’s own rules come later', () => {
    const html =
      '<!DOCTYPE html><html><head><style>p{color:blue}</style></head><body><header>x</header></body></html>';
    const out = composeDocument(html, 'p{color:red}');
    assert.ok(out.indexOf('color:red') < out.indexOf('color:blue'));
    assert.ok(out.startsWith('<!DOCTYPE html><html><head><style>p{color:red}</style>'));
  });

  it('adds a head when a full document has none, after <html> or the doctype', () => {
    assert.equal(
      composeDocument('<html><body>x</body></html>', 'a{}'),
      '<html><head><style>a{}</style></head><body>x</body></html>',
    );
    assert.equal(
      composeDocument('<!doctype html><p>x', 'a{}'),
      '<!doctype html><head><style>a{}</style></head><p>x',
    );
  });

  it('returns a full document unchanged without CSS', () => {
    const html = '<!DOCTYPE html><html><body>x</body></html>';
    assert.equal(composeDocument(html, null), html);
    assert.equal(composeDocument(html, ''), html);
  });

  it('keeps CSS from closing its style element', () => {
    const out = composeDocument('<p>x</p>', 'a{content:"</style><script>alert(1)</script>"}');
    assert.equal(out.match(/<\/style/gi)?.length, 1);
    assert.ok(!out.includes('</style><script>'));
  });
});
