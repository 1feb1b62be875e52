/** A small seeded PRNG (mulberry32) so property and fuzz tests are reproducible from their seed. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

export type Rng = ReturnType<typeof rng>;

const STRINGS = [
  '',
  'a',
  '0',
  '-1',
  '1e309',
  'null',
  'true',
  '<p>x</p>',
  '{{ x }}',
  '💥',
  '\u0000',
  'A4',
  'print',
  '10mm',
  '../../etc/passwd',
  'x'.repeat(300),
];

/** A random JSON value, biased towards the shapes that break validators. */
export function randomJson(r: Rng, depth = 0, keys: readonly string[] = []): unknown {
  const kind = r.int(depth > 3 ? 6 : 9);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return r.next() < 0.5;
    case 2:
      return r.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, 42]);
    case 3:
    case 4:
      return r.pick(STRINGS);
    case 5:
      return r.int(10);
    case 6:
      return Array.from({ length: r.int(4) }, () => randomJson(r, depth + 1, keys));
    default: {
      const out: Record<string, unknown> = {};
      const n = r.int(5);
      for (let i = 0; i < n; i++) {
        const key =
          keys.length > 0 && r.next() < 0.7
            ? r.pick(keys)
            : r.pick(['__proto__', 'constructor', 'x', '', 'a.b', 'data']);
        out[key] = randomJson(r, depth + 1, keys);
      }
      return out;
    }
  }
}

/** `base` cut short at a random length. */
export function cutShort(r: Rng, base: Buffer): Buffer {
  return base.subarray(0, r.int(base.length));
}

/** A copy of `base` with 1 to `most` bytes set at random (a few may land on the same byte). */
export function flipBytes(r: Rng, base: Buffer, most: number): Buffer {
  const copy = Buffer.from(base);
  for (let i = 0; i < 1 + r.int(most); i++) copy[r.int(copy.length)] = r.int(256);
  return copy;
}

/** `least` to `least + most - 1` random bytes. */
export function noise(r: Rng, least: number, most: number): Buffer {
  return Buffer.from(Array.from({ length: least + r.int(most) }, () => r.int(256)));
}

/**
 * A real file damaged where parsers trip: cut short, with bytes flipped, noise behind its first bytes (4 to
 * 4 + `header`), or pure noise.
 */
export function damagedBytes(r: Rng, base: Buffer, header: number): Buffer {
  switch (r.int(4)) {
    case 0:
      return cutShort(r, base);
    case 1:
      return flipBytes(r, base, 16);
    case 2:
      return Buffer.concat([base.subarray(0, 4 + r.int(header)), noise(r, 0, 2000)]);
    default:
      return noise(r, 1, 3000);
  }
}
