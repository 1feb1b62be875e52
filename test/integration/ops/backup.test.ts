import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { quire } from '../../helpers/quire-process.js';
import { api, startTestServer, type TestServer } from '../../helpers/server.js';

describe('quire backup under write load, quire restore into a new data directory', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'quire-backup-'));
  const servers: TestServer[] = [];
  after(async () => {
    for (const s of servers) await s.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('restores a working service whose documents, keys and signed links survive', async () => {
    const source = await startTestServer();
    servers.push(source);
    const { live } = await source.team('growth');
    const make = async (n: number) => {
      const res = await api(source.base, 'POST', '/v1/pdf', {
        key: live,
        body: { html: `<p>document ${n}</p>`, response: 'url' },
      });
      assert.equal(res.status, 200, res.text);
      return res.json.id as string;
    };
    const before = [await make(1), await make(2)];

    // Documents keep being written while the backup runs (the CLI is a separate process).
    let writing = true;
    const during: string[] = [];
    const load = (async () => {
      for (let n = 3; writing; n++) during.push(await make(n));
    })();
    const backupDir = path.join(scratch, 'backup');
    const backup = await quire({ QUIRE_DATA_DIR: source.config.dataDir }, 'backup', backupDir);
    writing = false;
    await load;
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /Backed up .* stored files, server secret/);
    assert.ok(during.length > 0, 'no document was written during the backup');

    const target = path.join(scratch, 'restored');
    const refused = await quire({ QUIRE_DATA_DIR: source.config.dataDir }, 'restore', backupDir);
    assert.equal(refused.code, 2, 'restoring over a data directory in use must be refused');
    const restore = await quire({ QUIRE_DATA_DIR: target }, 'restore', backupDir);
    assert.equal(restore.code, 0, restore.stderr);

    const restored = await startTestServer({ dataDir: target });
    servers.push(restored);
    for (const id of before) {
      const doc = await api(restored.base, 'GET', `/v1/pdf/${id}`, { key: live });
      assert.equal(doc.status, 200, doc.text);
      // The link was signed with the source's server secret: it must still verify here.
      const link = doc.json.url.replace(source.base, restored.base);
      const file = await api(restored.base, 'GET', new URL(link).pathname + new URL(link).search);
      assert.equal(file.status, 200);
      assert.equal(file.buffer.subarray(0, 5).toString(), '%PDF-');
    }
    // Consistency: every stored document the snapshot holds has its file.
    const rows = await restored.built.services.db
      .selectFrom('documents')
      .select(['id', 'blob_key'])
      .where('blob_key', 'is not', null)
      .execute();
    assert.ok(rows.length >= before.length);
    for (const row of rows)
      assert.ok(existsSync(path.join(target, 'blobs', row.blob_key ?? '')), `file of ${row.id} missing`);
  });

  it('refuses to restore from a directory that is not a backup', async () => {
    const notBackup = await quire({ QUIRE_DATA_DIR: path.join(scratch, 'x') }, 'restore', scratch);
    assert.equal(notBackup.code, 2);
    assert.match(notBackup.stderr, /is not a Quire backup/);
  });
});
