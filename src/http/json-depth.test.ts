import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rng } from '../../test/helpers/random.js';
import { findExcessiveNesting, MAX_JSON_DEPTH } from './json-depth.js';

const nested = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);

/** The true nesting depth of a parsed value, walked without recursion (the value may be deep). */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    max = Math.max(max, d);
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/** Random JSON text of a chosen depth, with strings that look like structure (brackets, escaped quotes). */
function randomDeepJson(r: ReturnType<typeof rng>, depth: number): string {
  const strings = ['"["', '"{\\"a\\":["', '"\\\\"', '"]}"', '"x\\\\\\"["', '""'];
  let text = r.pick(strings);
  for (let level = 0; level < depth; level++) {
    const sibling = r.next() < 0.3 ? `${r.pick(strings)},` : '';
    text =
      r.next() < 0.5
        ? `[${sibling}${text}]`
        : `{${r.pick(strings)}:${text}${sibling ? `,"sibling":${sibling.slice(0, -1)}` : ''}}`;
  }
  return text;
}

describe('findExcessiveNesting', () => {
  it('accepts the limit and refuses one level more', () => {
    assert.equal(findExcessiveNesting(nested(MAX_JSON_DEPTH)), null);
    assert.deepEqual(findExcessiveNesting(nested(MAX_JSON_DEPTH + 1)), { field: null });
    assert.equal(findExcessiveNesting(nested(3), 3), null);
    assert.ok(findExcessiveNesting(nested(4), 3));
  });

  it('names the top-level field the excess is in', () => {
    const body = `{"html":"<p>[[[[</p>","metadata":{"a":1},"data":{"x":${nested(200)}}}`;
    assert.deepEqual(findExcessiveNesting(body), { field: 'data' });
    assert.deepEqual(findExcessiveNesting(`{"m\\"x" : ${nested(200)}}`), { field: 'm"x' });
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const text = `{"html":"${'[{'.repeat(500)}\\"${'['.repeat(500)}\\\\","a":[]}`;
    assert.equal(findExcessiveNesting(text), null);
    assert.deepEqual(JSON.parse(text).a, []);
  });

  it('measures malformed text as far as it goes without throwing', () => {
    for (const text of ['', '{', '"unterminated', '{"a":"[[[', ']]]]', nested(50).slice(0, 60)]) {
      assert.equal(findExcessiveNesting(text), null, text);
    }
    assert.ok(findExcessiveNesting('['.repeat(MAX_JSON_DEPTH + 1)));
  });

  it('agrees with the parsed depth on random bodies (property)', () => {
    const r = rng(20261123);
    for (let i = 0; i < 300; i++) {
      const depth = r.int(2 * MAX_JSON_DEPTH);
      const text = randomDeepJson(r, depth);
      const parsedDepth = depthOf(JSON.parse(text));
      assert.equal(parsedDepth, depth, text.slice(0, 200));
      assert.equal(findExcessiveNesting(text) !== null, depth > MAX_JSON_DEPTH, text.slice(0, 200));
    }
  });
});
