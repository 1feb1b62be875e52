import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');

/** The CLI guide's table (docs/cli.md) is the CLI's own help, not a hand-kept copy. */
describe('CLI table in docs/cli.md', () => {
  it('equals the table generated from the CLI help (node scripts/cli-readme.mjs --check)', () => {
    const result = spawnSync(process.execPath, [path.join(root, 'scripts/cli-readme.mjs'), '--check'], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
  });
});
