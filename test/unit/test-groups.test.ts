import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { groupable, groupEntrySource, planProcesses, UNGROUPED } from '../../scripts/test-groups.mjs';
import { root } from '../../scripts/test-plan.mjs';

describe('small test files share a process (scripts/test-groups.mjs)', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'quire-test-groups-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  /** A file under a fake repository's test/integration/, with `source` as its text. */
  function file(relative: string, source = "describe('x', () => { it('y', () => {}); });\n") {
    const full = path.join(scratch, relative);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, source);
    return full;
  }
  const cheap = () => 1_000;

  it('groups small integration files whose tests sit in describe blocks, and nothing else', () => {
    const small = file('test/integration/documents/a.test.ts');
    assert.equal(groupable(scratch, small, 1_000), true);
    assert.equal(groupable(scratch, small, 25_000), false, 'a long file runs alone');
    const bare = file('test/integration/documents/bare.test.ts', "it('at the root', () => {});\n");
    assert.equal(groupable(scratch, bare, 1_000), false, 'a root-level test would join the group root');
    const waits = file('test/integration/documents/waits.test.ts', 'const server = await start();\n');
    assert.equal(groupable(scratch, waits, 1_000), false, 'a top-level await holds the later files back');
    const hook = file('test/integration/documents/hook.test.ts', 'after(() => {});\n');
    assert.equal(groupable(scratch, hook, 1_000), false, 'a root-level hook would run around other files');
    assert.equal(groupable(scratch, file('test/integration/dashboard/d.test.ts'), 1_000), false);
    assert.equal(groupable(scratch, file('test/integration/render/r.test.ts'), 1_000), false);
    assert.equal(groupable(scratch, file('src/liquid/unit.test.ts'), 1_000), true, 'unit tests too');
    assert.equal(groupable(scratch, file('test/unit/unit.test.ts'), 1_000), true);
    assert.equal(groupable(scratch, file('src/storage/backup.test.ts'), 1_000), false, 'sets the umask');
    assert.equal(groupable(scratch, file('test/visual/v.test.ts'), 1_000), false);
    assert.equal(groupable(scratch, file('bench/b.test.ts'), 1_000), false, 'only the suite’s folders');
  });

  it('packs groups up to 40 s of recorded time, in path order, and keeps the others alone', () => {
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((n) =>
      file(`test/integration/pack/${n}.test.ts`),
    ) as [string, string, string, string, string];
    const alone = file('test/integration/dashboard/alone.test.ts');
    const long = file('test/integration/pack/long.test.ts');
    const cost = (f: string) => (f === a ? 18_000 : f === long ? 30_000 : 12_000);
    // a + b + c reach 42 s and close the first group; d and e make the second.
    assert.deepEqual(planProcesses(scratch, [e, alone, d, long, c, b, a], cost), [
      [alone],
      [long],
      [a, b, c],
      [d, e],
    ]);
    assert.deepEqual(planProcesses(scratch, [alone], cheap), [[alone]]);
  });

  it('writes an entry that imports each member by URL, one after the other', () => {
    const source = groupEntrySource(['file:///x/a.test.js', 'file:///x/b "q".test.js']);
    assert.match(
      source,
      /await import\("file:\/\/\/x\/a\.test\.js"\);\nawait import\("file:\/\/\/x\/b \\"q\\"\.test\.js"\);/,
    );
  });

  it('lists only paths that exist', () => {
    for (const { paths, reason } of UNGROUPED) {
      assert.ok(reason.length > 10);
      for (const p of paths) assert.ok(exists(path.join(root, p)), p);
    }
  });
});

function exists(p: string) {
  try {
    return Boolean(statSync(p));
  } catch {
    return false;
  }
}
