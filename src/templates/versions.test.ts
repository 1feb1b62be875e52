import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalJson,
  nextContent,
  type VersionContent,
  versionsToPrune,
  versionToUse,
} from './versions.js';

const current: VersionContent = {
  html: '<p>{{ a }}</p>',
  css: 'p{color:red}',
  sampleData: { a: 1, b: { c: 2 } },
  settings: { mode: 'print', format: 'A4' },
};

describe('nextContent (spec: Template versions)', () => {
  it('makes no version when nothing is sent or everything equals the current content', () => {
    assert.equal(nextContent(current, {}), null);
    assert.equal(
      nextContent(current, {
        html: current.html,
        css: current.css,
        sample_data: { b: { c: 2 }, a: 1 },
        settings: { format: 'A4', mode: 'print' },
      }),
      null,
    );
  });

  it('copies omitted fields from the current version', () => {
    assert.deepEqual(nextContent(current, { html: '<b>x</b>' }), { ...current, html: '<b>x</b>' });
    assert.deepEqual(nextContent(current, { sample_data: { z: 1 } }), { ...current, sampleData: { z: 1 } });
  });

  it('replaces settings as a whole', () => {
    assert.deepEqual(nextContent(current, { settings: { margin: '1in' } })?.settings, { margin: '1in' });
    assert.deepEqual(nextContent(current, { settings: {} })?.settings, {});
  });

  it('removes the stylesheet with css null, and null twice is no change', () => {
    const removed = nextContent(current, { css: null });
    assert.equal(removed?.css, null);
    assert.equal(nextContent({ ...current, css: null }, { css: null }), null);
  });

  it('treats array order as content', () => {
    const withList = { ...current, sampleData: { l: [1, 2] } };
    assert.notEqual(nextContent(withList, { sample_data: { l: [2, 1] } }), null);
  });
});

describe('versionsToPrune', () => {
  const all = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  it('keeps the latest 50', () => {
    assert.deepEqual(versionsToPrune(all(50), 50, null), []);
    assert.deepEqual(versionsToPrune(all(51), 51, null), [1]);
    assert.deepEqual(versionsToPrune(all(53), 53, null), [1, 2, 3]);
  });
  it('keeps the pinned one too', () => {
    assert.deepEqual(versionsToPrune(all(52), 52, 1), [2]);
    assert.deepEqual(versionsToPrune([1, 3, 4], 52, 1, 50), []);
    assert.deepEqual(versionsToPrune([1, 3, 4], 53, null, 50), [1, 3]);
  });
});

describe('versionToUse', () => {
  it('asked, else pinned, else current', () => {
    assert.equal(versionToUse({ current_version: 5, pinned_version: 2 }, 4), 4);
    assert.equal(versionToUse({ current_version: 5, pinned_version: 2 }, undefined), 2);
    assert.equal(versionToUse({ current_version: 5, pinned_version: null }, undefined), 5);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every level', () => {
    assert.equal(
      canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: null } }),
      '{"a":{"c":null,"d":[{"x":2,"y":1}]},"b":1}',
    );
  });
});
