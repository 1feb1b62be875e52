import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { BackupError, backupDataDir, restoreDataDir } from './backup.js';

/** Every directory's and file's permission bits under `dir` (itself included), by relative path. */
function modes(dir: string): Map<string, number> {
  const found = new Map([['.', statSync(dir).mode & 0o777]]);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const at = path.join(entry.parentPath, entry.name);
    found.set(path.relative(dir, at), statSync(at).mode & 0o777);
  }
  return found;
}

describe('backup file modes', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'quire-backup-modes-'));
  const dataDir = path.join(scratch, 'data');
  let umask = 0;
  before(() => {
    // The worst case: everything the process creates is world-readable and writable unless set explicitly.
    umask = process.umask(0);
    mkdirSync(path.join(dataDir, 'blobs', 'ab'), { recursive: true, mode: 0o777 });
    const db = new SqliteDatabase(path.join(dataDir, 'quire.sqlite'));
    db.exec('create table t (x text); insert into t values (1)');
    db.close();
    writeFileSync(path.join(dataDir, 'blobs', 'ab', 'file'), 'pdf', { mode: 0o666 });
    writeFileSync(path.join(dataDir, 'server-secret'), 'secret', { mode: 0o666 });
  });
  after(() => {
    process.umask(umask);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('writes every file 0600 inside 0700 folders under umask 000, and restores the same way', async () => {
    const target = path.join(scratch, 'new', 'backup');
    const summary = await backupDataDir(dataDir, target);
    assert.equal(summary.files, 1);
    const written = modes(target);
    assert.deepEqual([...written.keys()].sort(), [
      '.',
      'blobs',
      'blobs/ab',
      'blobs/ab/file',
      'quire-backup.json',
      'quire.sqlite',
      'server-secret',
    ]);
    for (const [name, mode] of written) {
      const isDir = statSync(path.join(target, name)).isDirectory();
      assert.equal(mode.toString(8), isDir ? '700' : '600', name);
    }
    const restored = path.join(scratch, 'restored');
    restoreDataDir(target, restored);
    for (const [name, mode] of modes(restored)) {
      const isDir = statSync(path.join(restored, name)).isDirectory();
      assert.equal(mode.toString(8), isDir ? '700' : '600', `restored ${name}`);
    }
  });

  it('refuses an existing backup folder other users can open, and says how to fix it', async () => {
    const open = path.join(scratch, 'open');
    mkdirSync(open, { mode: 0o755 });
    await assert.rejects(backupDataDir(dataDir, open), (err: Error) => {
      assert.ok(err instanceof BackupError);
      assert.match(err.message, /open to other users \(mode 0755\).*chmod 700/);
      return true;
    });
    assert.deepEqual(readdirSync(open), [], 'nothing was written');
    const own = path.join(scratch, 'own');
    mkdirSync(own, { mode: 0o700 });
    await backupDataDir(dataDir, own);
    assert.equal(statSync(path.join(own, 'server-secret')).mode & 0o777, 0o600);
  });
});
