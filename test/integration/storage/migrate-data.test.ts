import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { S3BlobStore } from '../../../src/storage/s3-blob-store.js';
import { createPostgresDatabase } from '../../helpers/database.js';
import { bundleOrSource } from '../../helpers/quire-process.js';
import { startS3Server, type TestS3 } from '../../helpers/s3.js';
import { api, startTestServer, type TestServer, type TestTeam } from '../../helpers/server.js';
import { createTemplate, waitForBatch } from '../batches/helpers.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin', 'quire.mjs');

/** The same signed link on another server: path and signature unchanged, only the origin differs. */
const on = (base: string, link: string) => {
  const url = new URL(link);
  return `${base}${url.pathname}${url.search}`;
};

async function download(link: string): Promise<Buffer> {
  const r = await fetch(link);
  assert.equal(r.status, 200, link);
  return Buffer.from(await r.arrayBuffer());
}

/**
 * `quire migrate-data` round trip: a populated local install (SQLite + DATA_DIR/blobs) copied to a second
 * SQLite database and a real S3-compatible server, then served from the copy.
 */
describe('quire migrate-data', () => {
  let s3: TestS3;
  let source: TestServer;
  let copy: TestServer | null = null;
  let t: TestTeam;
  const targetDir = path.join(mkdtempSync(path.join(tmpdir(), 'quire-moved-')), 'data');
  const original = {
    docs: [] as { id: string; url: string; bytes: Buffer }[],
    templateId: '',
    template: null as unknown,
    zipUrl: '',
    zip: Buffer.alloc(0) as Buffer,
  };

  const migrate = (...args: string[]) =>
    run(process.execPath, [bin, 'migrate-data', ...args], {
      cwd: root,
      env: {
        ...process.env,
        ...bundleOrSource(),
        QUIRE_DATA_DIR: source.config.dataDir,
        QUIRE_STORAGE_URL: '',
        QUIRE_LOG_LEVEL: 'silent',
      },
    });

  before(async () => {
    s3 = await startS3Server();
    // The source is the embedded default whatever the test switches say: SQLite and a local blob directory.
    source = await startTestServer({ workers: 1, storage: null, databaseUrl: null });
    t = await source.team('growth');
    original.templateId = await createTemplate(source.base, t.live);
    for (const body of [
      { html: '<h1>Plain HTML</h1>', response: 'url' },
      {
        template_id: original.templateId,
        data: { number: 'T-1', customer: { name: 'Ada' } },
        response: 'url',
      },
    ]) {
      const r = await api(source.base, 'POST', '/v1/pdf', { key: t.live, body });
      assert.equal(r.status, 200, r.text);
      original.docs.push({ id: r.json.id, url: r.json.url, bytes: await download(r.json.url) });
    }
    original.template = (
      await api(source.base, 'GET', `/v1/templates/${original.templateId}`, { key: t.live })
    ).json;
    const batch = await api(source.base, 'POST', '/v1/batches', {
      key: t.live,
      body: {
        template_id: original.templateId,
        items: [{ data: { number: 'B-1', customer: { name: 'Bo' } } }],
      },
    });
    assert.equal(batch.status, 202, batch.text);
    const done = await waitForBatch(source.base, t.live, batch.json.id);
    original.zipUrl = done.zip.url;
    original.zip = await download(done.zip.url);
    // Stopped, not removed: migrate-data copies a stopped install.
    await source.built.close();
  });
  after(async () => {
    await copy?.close();
    rmSync(source.config.dataDir, { recursive: true, force: true });
    rmSync(path.dirname(targetDir), { recursive: true, force: true });
    await s3.close();
  });

  it('copies every table and blob, verified, and a server on the copy serves the same documents and links', async () => {
    const { stdout } = await migrate('--to', targetDir, '--storage', s3.url('moved/'));
    assert.match(stdout, /^teams\s+1 row\(s\), counts match$/m);
    assert.match(stdout, /^documents\s+3 row\(s\), counts match$/m);
    assert.match(stdout, /^batches\s+1 row\(s\), counts match$/m);
    assert.match(stdout, /^blobs\s+\d+ object\(s\), \d+ bytes, sizes and SHA-256 match$/m);

    const bucket = new S3BlobStore(s3.location('moved/'));
    try {
      for (const doc of original.docs)
        assert.deepEqual(await bucket.get(`documents/${doc.id}.pdf`), doc.bytes);
    } finally {
      bucket.close();
    }

    // The copy is the SQLite file in targetDir, whatever the test switches say.
    copy = await startTestServer({
      dataDir: targetDir,
      databaseUrl: null,
      storage: s3.location('moved/'),
      workers: 1,
    });
    for (const doc of original.docs) {
      // The same key reads the document; the link signed by the old install still works (same secret).
      const read = await api(copy.base, 'GET', `/v1/pdf/${doc.id}`, { key: t.live });
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(await download(read.json.url), doc.bytes);
      assert.deepEqual(await download(on(copy.base, doc.url)), doc.bytes);
    }
    const template = await api(copy.base, 'GET', `/v1/templates/${original.templateId}`, { key: t.live });
    assert.equal(template.status, 200);
    const strip = (json: Record<string, unknown>) => ({ ...json, thumbnail_url: null });
    assert.deepEqual(strip(template.json), strip(original.template as Record<string, unknown>));
    assert.deepEqual(await download(on(copy.base, original.zipUrl)), original.zip);

    // And it keeps working: a new render is stored in the bucket.
    const fresh = await api(copy.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: {
        template_id: original.templateId,
        data: { number: 'N-1', customer: { name: 'Cy' } },
        response: 'url',
      },
    });
    assert.equal(fresh.status, 200, fresh.text);
    assert.ok(await copy.built.services.blobs.exists(`documents/${fresh.json.id}.pdf`));
  });

  it('copies onto PostgreSQL and S3, and a server on them serves the same documents and links', async () => {
    const database = await createPostgresDatabase(
      process.env.QUIRE_TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test',
    );
    const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-moved-pg-'));
    let onPg: TestServer | null = null;
    try {
      const { stdout } = await migrate('--to', database.url, '--storage', s3.url('on-pg/'));
      assert.match(stdout, /^documents\s+3 row\(s\), counts match$/m);
      assert.match(stdout, /^blobs\s+\d+ object\(s\), \d+ bytes, sizes and SHA-256 match$/m);
      // A database holds no files: the operator keeps the server secret, as the command says.
      assert.match(stdout, /Keep .*server-secret in the new install's QUIRE_DATA_DIR/);
      copyFileSync(path.join(source.config.dataDir, 'server-secret'), path.join(dataDir, 'server-secret'));
      onPg = await startTestServer({
        dataDir,
        databaseUrl: database.url,
        storage: s3.location('on-pg/'),
        workers: 1,
      });
      for (const doc of original.docs) {
        const read = await api(onPg.base, 'GET', `/v1/pdf/${doc.id}`, { key: t.live });
        assert.equal(read.status, 200, read.text);
        assert.deepEqual(await download(on(onPg.base, doc.url)), doc.bytes);
      }
      assert.deepEqual(await download(on(onPg.base, original.zipUrl)), original.zip);
    } finally {
      await onPg?.close();
      await database.drop();
    }
  });

  it('refuses a target database that already holds rows', async () => {
    await assert.rejects(migrate('--to', targetDir), (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 2);
      assert.match(err.stderr, /The target database is not empty: teams has 1 row\(s\)\./);
      return true;
    });
  });
});
