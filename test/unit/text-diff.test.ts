import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffCounts, diffLines } from '../../web/src/text-diff.js';

/** The dashboard's line diff (version source against the current one): pure logic, table-driven. */
describe('diffLines', () => {
  it('marks the changed line between kept ones', () => {
    assert.deepEqual(diffLines('a\nb\nc', 'a\nB\nc'), [
      { kind: 'same', text: 'a' },
      { kind: 'del', text: 'b' },
      { kind: 'add', text: 'B' },
      { kind: 'same', text: 'c' },
    ]);
  });

  const cases: [string, string, string, { added: number; removed: number }][] = [
    ['identical', 'x\ny', 'x\ny', { added: 0, removed: 0 }],
    ['a line appended', 'x', 'x\ny', { added: 1, removed: 0 }],
    ['a line removed in the middle', 'x\ny\nz', 'x\nz', { added: 0, removed: 1 }],
    ['everything replaced', 'a\nb', 'c\nd\ne', { added: 3, removed: 2 }],
    ['empty to text', '', 'one', { added: 1, removed: 1 }],
  ];
  for (const [name, older, newer, counts] of cases) {
    it(name, () => assert.deepEqual(diffCounts(diffLines(older, newer)), counts));
  }

  it('always rebuilds both texts from its lines (300 seeded random pairs)', () => {
    // fast-check is not a dependency: a seeded generator gives the same pairs on every run.
    let seed = 30;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const words = ['a', 'b', 'c', '', '{{ x }}'];
    const text = () =>
      Array.from({ length: Math.floor(next() * 30) }, () => words[Math.floor(next() * 5)]).join('\n');
    for (let run = 0; run < 300; run++) {
      const older = text();
      const newer = text();
      const lines = diffLines(older, newer);
      const rebuilt = (skip: 'add' | 'del') =>
        lines
          .filter((l) => l.kind !== skip)
          .map((l) => l.text)
          .join('\n');
      assert.equal(rebuilt('add'), older, `older text of run ${run}`);
      assert.equal(rebuilt('del'), newer, `newer text of run ${run}`);
    }
  });
});
