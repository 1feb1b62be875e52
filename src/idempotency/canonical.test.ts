import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyHash, canonicalJson } from './canonical.js';

function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function reorder(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => reorder(v, seed + i));
  if (value !== null && typeof value === 'object') {
    const entries = shuffled(Object.entries(value as Record<string, unknown>), seed);
    return Object.fromEntries(entries.map(([k, v], i) => [k, reorder(v, seed + i + 1)]));
  }
  return value;
}

function randomValue(depth: number, seed: number): unknown {
  const kind = (seed * 7 + depth) % 6;
  if (depth > 3 || kind === 0) return seed % 1000;
  if (kind === 1) return `s${seed % 97}\u00e9"`;
  if (kind === 2) return seed % 2 === 0;
  if (kind === 3) return null;
  if (kind === 4) return Array.from({ length: seed % 4 }, (_, i) => randomValue(depth + 1, seed + i * 31));
  return Object.fromEntries(
    Array.from({ length: 1 + (seed % 5) }, (_, i) => [
      `k${(seed + i * 13) % 17}`,
      randomValue(depth + 1, seed + i),
    ]),
  );
}

describe('canonical body hash', () => {
  it('is the same for any key order and any spacing (property, 300 random bodies)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const body = randomValue(0, seed);
      const again = JSON.parse(JSON.stringify(reorder(body, seed * 3), null, seed % 4));
      assert.equal(bodyHash(again), bodyHash(body));
      assert.deepEqual(JSON.parse(canonicalJson(body)), body);
    }
  });

  it('differs when a value, a key or an array order differs', () => {
    const base = { html: '<p>x</p>', data: { a: [1, 2], b: 'x' } };
    const variants = [
      { html: '<p>y</p>', data: { a: [1, 2], b: 'x' } },
      { html: '<p>x</p>', data: { a: [2, 1], b: 'x' } },
      { html: '<p>x</p>', data: { a: [1, 2], c: 'x' } },
      { html: '<p>x</p>', data: { a: [1, 2], b: 'x' }, test: true },
    ];
    for (const v of variants) assert.notEqual(bodyHash(v), bodyHash(base));
  });
});
