import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { S3BlobStore } from '../../../src/storage/s3-blob-store.js';
import { startS3Server, type TestS3 } from '../../helpers/s3.js';
import { api, renderedPdf, startTestServer, type TestServer } from '../../helpers/server.js';
import { completedBatch, invoiceItems, teamWithTemplate } from '../batches/helpers.js';

/** The real server with QUIRE_STORAGE_URL on a real S3-compatible server (s3rver on loopback). */
describe('the server on S3-compatible storage', () => {
  let s3: TestS3;
  let server: TestServer;
  /** The bucket as seen from outside the server, under the server's prefix. */
  let bucket: S3BlobStore;
  before(async () => {
    s3 = await startS3Server();
    const storage = s3.location('install-a/');
    server = await startTestServer({ storage, workers: 1 });
    bucket = new S3BlobStore(storage);
  });
  after(async () => {
    await server.close();
    bucket.close();
    await s3.close();
  });

  it('a stored PDF is an object in the bucket; its signed link serves the same bytes with the spec headers', async () => {
    const t = await server.team('growth');
    const binary = await renderedPdf(server, t.live, { html: '<h1>Stored on S3</h1>', filename: 'on-s3' });
    const id = binary.headers.get('x-document-id');
    assert.ok(id);
    assert.deepEqual(await bucket.get(`documents/${id}.pdf`), binary.buffer, 'the object holds the PDF');

    const doc = await api(server.base, 'GET', `/v1/pdf/${id}`, { key: t.live });
    assert.equal(doc.status, 200);
    const file = await fetch(doc.json.url);
    assert.equal(file.status, 200);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), binary.buffer);
    assert.equal(file.headers.get('content-type'), 'application/pdf');
    assert.equal(file.headers.get('content-length'), String(binary.buffer.length));
    assert.equal(file.headers.get('content-disposition'), 'inline; filename="on-s3.pdf"');
    assert.equal(file.headers.get('cache-control'), 'private, max-age=300');
    assert.equal(file.headers.get('content-security-policy'), 'sandbox');
    assert.equal(file.headers.get('x-content-type-options'), 'nosniff');

    const thumb = await fetch(doc.json.thumbnail_url);
    assert.equal(thumb.status, 200);
    assert.equal(thumb.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await thumb.arrayBuffer());
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    const thumbnails: string[] = [];
    for await (const key of bucket.keys()) if (key.startsWith('thumbnails/')) thumbnails.push(key);
    assert.equal(thumbnails.length, 1, 'the thumbnail is stored in the bucket too');

    // Retention: an expired file's object is deleted from the bucket.
    await server.built.services.db
      .updateTable('documents')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    await server.built.services.sweeper.runOnce();
    assert.equal(await bucket.exists(`documents/${id}.pdf`), false);
    assert.equal((await fetch(doc.json.url)).status, 410);
  });

  it('a batch ZIP is stored in the bucket, downloaded through Quire, and deleted when it expires', async () => {
    const { team: t, templateId } = await teamWithTemplate(server, 'growth');
    const items = invoiceItems(['S-1', 'Ada'], ['S-2', 'Bo']);
    const done = await completedBatch(server.base, t.live, { template_id: templateId, items });
    assert.equal(done.counts.succeeded, 2);
    const row = await server.built.services.db
      .selectFrom('batches')
      .select('zip_key')
      .where('id', '=', done.id)
      .executeTakeFirstOrThrow();
    assert.ok(row.zip_key);
    const stored = await bucket.get(row.zip_key);
    assert.ok(stored, 'the ZIP is an object in the bucket');
    const zip = await fetch(done.zip.url);
    assert.equal(zip.status, 200);
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    assert.deepEqual(Buffer.from(await zip.arrayBuffer()), stored);

    await server.built.services.db
      .updateTable('batches')
      .set({ zip_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', done.id)
      .execute();
    await server.built.services.sweeper.runOnce();
    assert.equal(await bucket.exists(row.zip_key), false);
  });

  it('with the store down a render that must store gets service_busy (503) and /readyz is not ready; back after', async () => {
    const t = await server.team('growth');
    const stored = await renderedPdf(server, t.live, { html: '<p>before</p>', response: 'url' });
    assert.equal((await api(server.base, 'GET', '/readyz')).status, 200);
    await s3.stop();
    try {
      const r = await api(server.base, 'POST', '/v1/pdf', {
        key: t.live,
        body: { html: '<p>must store</p>', response: 'url' },
      });
      assert.equal(r.status, 503, r.text);
      assert.equal(r.json.error.code, 'service_busy');
      assert.match(r.json.error.docs_url, /service_busy/);
      assert.equal(r.headers.get('retry-after'), '5');
      assert.equal(
        r.json.error.message,
        'File storage is unavailable right now.',
        'the store error stays in the log',
      );
      const download = await fetch(stored.json.url);
      assert.equal(download.status, 503, 'a signed download too');
      assert.equal(((await download.json()) as { error: { code: string } }).error.code, 'service_busy');
      const thumbnail = await fetch(stored.json.thumbnail_url);
      assert.equal(thumbnail.status, 503, 'a thumbnail too');
      assert.equal(((await thumbnail.json()) as { error: { code: string } }).error.code, 'service_busy');
      const ready = await api(server.base, 'GET', '/readyz');
      assert.equal(ready.status, 503);
      assert.equal(ready.json.status, 'storage unavailable');
    } finally {
      await s3.start();
    }
    assert.equal((await api(server.base, 'GET', '/readyz')).status, 200);
    const again = await api(server.base, 'POST', '/v1/pdf', {
      key: t.live,
      body: { html: '<p>stored again</p>', response: 'url' },
    });
    assert.equal(again.status, 200, again.text);
    assert.equal((await fetch(again.json.url)).status, 200);
  });
});
