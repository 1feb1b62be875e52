import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import {
  lockedVersion,
  matchingShippedPrebuilds,
  prebuildName,
  SHIPPED_PREBUILDS,
} from '../../scripts/sqlite-prebuild.mjs';

/**
 * better-sqlite3's binary shipped in tools/prebuilds/ (a fresh clone's `npm ci` installs it instead of compiling
 * SQLite for over a minute): the locked version's, for this Node, and a working addon.
 */
describe('shipped better-sqlite3 binary', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'quire-sqlite-prebuild-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  it('is the locked version for this Node and platform, one per target (else run `npm run prebuilds:ship`)', () => {
    const name = prebuildName(lockedVersion());
    assert.ok(readdirSync(SHIPPED_PREBUILDS).includes(name), `${name} in tools/prebuilds/`);
    assert.equal(matchingShippedPrebuilds(), SHIPPED_PREBUILDS, 'the bootstrap points npm ci at it');
    const target = name.slice(name.indexOf('-node-'));
    assert.deepEqual(
      readdirSync(SHIPPED_PREBUILDS).filter((file) => file.endsWith(target)),
      [name],
      'no older version for the same target',
    );
  });

  it('holds only the addon, which loads in this Node and opens a database', () => {
    const tarball = path.join(SHIPPED_PREBUILDS, prebuildName(lockedVersion()));
    const listed = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    assert.deepEqual(listed, ['build/Release/better_sqlite3.node']);
    execFileSync('tar', ['xzf', tarball, '-C', out]);
    const db = new Database(':memory:', {
      nativeBinding: path.join(out, 'build/Release/better_sqlite3.node'),
    });
    try {
      assert.deepEqual(db.prepare('SELECT 6 * 7 AS answer').get(), { answer: 42 });
    } finally {
      db.close();
    }
  });
});
