import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomJson, rng } from '../../test/helpers/random.js';
import { AppError } from '../shared/errors.js';
import { mergeData, pruneEmpty } from './merge-data.js';

type Json = Record<string, unknown>;

const CASES: Array<[string, Json, Json, Json]> = [
  ['scalars replace', { a: 1, b: 2 }, { a: 9 }, { a: 9, b: 2 }],
  ['null is dropped', { a: 1 }, { a: null }, { a: 1 }],
  ['"" is dropped', { a: 'x' }, { a: '' }, { a: 'x' }],
  ['[] is dropped', { a: [1] }, { a: [] }, { a: [1] }],
  ['{} is dropped', { a: { b: 1 } }, { a: {} }, { a: { b: 1 } }],
  ['an object of empties is empty', { a: { b: 1 } }, { a: { b: null, c: { d: '' } } }, { a: { b: 1 } }],
  [
    'objects merge recursively',
    { c: { name: 'A', addr: { city: 'X', zip: '1' } } },
    { c: { addr: { city: 'Y' } } },
    { c: { name: 'A', addr: { city: 'Y', zip: '1' } } },
  ],
  ['arrays replace whole', { items: [{ a: 1 }, { a: 2 }] }, { items: [{ b: 3 }] }, { items: [{ b: 3 }] }],
  ['array elements are kept as sent', { l: [1] }, { l: [null, ''] }, { l: [null, ''] }],
  ['an object replaces a scalar', { a: 1 }, { a: { b: 2 } }, { a: { b: 2 } }],
  ['a scalar replaces an object', { a: { b: 2 } }, { a: 'x' }, { a: 'x' }],
  ['new keys are added', {}, { n: { m: 1 } }, { n: { m: 1 } }],
  ['a dotted key is one key', { a: { b: 1 } }, { 'a.b': 2 }, { a: { b: 1 }, 'a.b': 2 }],
  ['false and 0 are values', { a: true, b: 5 }, { a: false, b: 0 }, { a: false, b: 0 }],
  ['whitespace is a value', { a: 'x' }, { a: ' ' }, { a: ' ' }],
  ['all empty merges nothing', { a: 1 }, { a: null, b: {}, c: [] }, { a: 1 }],
];

describe('mergeData', () => {
  for (const [name, data, merge, expected] of CASES) {
    it(name, () => {
      const dataCopy = structuredClone(data);
      const mergeCopy = structuredClone(merge);
      assert.deepEqual(mergeData(data, merge), expected);
      assert.deepEqual(data, dataCopy, 'data is not mutated');
      assert.deepEqual(merge, mergeCopy, 'merge_data is not mutated');
    });
  }

  it('keeps __proto__ and constructor as plain keys without touching any prototype', () => {
    const data = JSON.parse('{"a":{"x":1},"constructor":{"k":1}}') as Json;
    const merge = JSON.parse(
      '{"__proto__":{"polluted":true},"a":{"__proto__":{"polluted":true}},"constructor":{"prototype":{"polluted":true}}}',
    ) as Json;
    const out = mergeData(data, merge);
    assert.equal(({} as Json).polluted, undefined);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.ok(Object.hasOwn(out, '__proto__'));
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { polluted: true });
    assert.equal((out.a as Json).x, 1);
    assert.deepEqual(out.constructor, { k: 1, prototype: { polluted: true } });
    assert.equal(Object.getPrototypeOf(out.a), Object.prototype);
  });

  it('pruneEmpty returns undefined when nothing is left', () => {
    assert.equal(pruneEmpty({ a: { b: [] } }), undefined);
  });

  it('refuses absurd nesting with invalid_request instead of overflowing the stack', () => {
    let deep: Json = { v: 1 };
    for (let i = 0; i < 5000; i++) deep = { n: deep };
    assert.throws(
      () => mergeData({}, deep),
      (err: unknown) => err instanceof AppError && err.code === 'invalid_request',
    );
  });

  it('random inputs: never pollute a prototype, never mutate, never keep an empty value', () => {
    const keys = ['__proto__', 'constructor', 'prototype', 'a', 'a.b', 'toString'];
    for (let seed = 1; seed <= 2000; seed++) {
      const r = rng(seed);
      const data = JSON.parse(JSON.stringify({ d: randomJson(r, 0, keys) })) as Json;
      const merge = JSON.parse(
        JSON.stringify({ d: randomJson(r, 0, keys), e: randomJson(r, 0, keys) }),
      ) as Json;
      const before = JSON.stringify([data, merge]);
      const out = mergeData(data, merge);
      assert.equal(JSON.stringify([data, merge]), before, `seed ${seed}: mutated`);
      for (const probe of [{}, Object.prototype, Array.prototype]) {
        for (const key of ['polluted', 'a', 'a.b', 'd', 'e', 'x', 'data', '']) {
          assert.equal(Object.hasOwn(probe, key), false, `seed ${seed}: ${key} polluted`);
        }
      }
      assert.equal(typeof Object.prototype.toString, 'function');
      assert.ok(!hasEmptyFromMerge(out, data), `seed ${seed}: ${JSON.stringify(out)}`);
    }
  });
});

/** An empty value in the result must come from `data`, never from merge_data. */
function hasEmptyFromMerge(out: unknown, data: unknown): boolean {
  if (typeof out !== 'object' || out === null || Array.isArray(out)) return false;
  for (const [key, value] of Object.entries(out)) {
    const original =
      typeof data === 'object' && data !== null && Object.hasOwn(data, key) ? (data as Json)[key] : undefined;
    const empty =
      value === null || value === '' || (typeof value === 'object' && Object.keys(value).length === 0);
    if (empty && value !== original) return true;
    if (hasEmptyFromMerge(value, original)) return true;
  }
  return false;
}
