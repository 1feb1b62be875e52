import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { type BlobStore, BlobStoreUnavailable, FsBlobStore } from '../../../src/storage/blob-store.js';
import { S3BlobStore } from '../../../src/storage/s3-blob-store.js';
import { startS3Server, type TestS3 } from '../../helpers/s3.js';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function allKeys(blobs: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of blobs.keys()) keys.push(key);
  return keys.sort();
}

/** A stream of `total` bytes in 64 KiB chunks made on demand (never one big buffer), and its SHA-256. */
function generated(total: number): { stream: Readable; sha256: string } {
  const chunk = (i: number) => Buffer.alloc(Math.min(65_536, total - i * 65_536), i % 251);
  const hash = createHash('sha256');
  for (let i = 0; i * 65_536 < total; i++) hash.update(chunk(i));
  let i = 0;
  const stream = new Readable({
    read() {
      this.push(i * 65_536 < total ? chunk(i++) : null);
    },
  });
  return { stream, sha256: hash.digest('hex') };
}

/** The BlobStore port's behaviour, the same for every implementation. */
function contract(name: string, open: () => { blobs: BlobStore; other: BlobStore }): void {
  describe(`BlobStore contract: ${name}`, () => {
    it('put then get, read (streaming, with size) and exists', async () => {
      const { blobs } = open();
      const data = Buffer.from('%PDF-1.7 contract');
      await blobs.put('documents/a.pdf', data);
      assert.deepEqual(await blobs.get('documents/a.pdf'), data);
      const found = await blobs.read('documents/a.pdf');
      assert.ok(found);
      assert.equal(found.size, data.length);
      assert.deepEqual(await collect(found.stream), data);
      assert.equal(await blobs.exists('documents/a.pdf'), true);
    });

    it('put replaces an object whole', async () => {
      const { blobs } = open();
      await blobs.put('documents/b.pdf', Buffer.from('first version, longer'));
      await blobs.put('documents/b.pdf', Buffer.from('second'));
      assert.equal((await blobs.get('documents/b.pdf'))?.toString(), 'second');
    });

    it('missing keys: read and get are null, exists false, delete a no-op', async () => {
      const { blobs } = open();
      assert.equal(await blobs.read('documents/missing.pdf'), null);
      assert.equal(await blobs.get('documents/missing.pdf'), null);
      assert.equal(await blobs.exists('documents/missing.pdf'), false);
      await blobs.delete('documents/missing.pdf');
    });

    it('delete removes the object', async () => {
      const { blobs } = open();
      await blobs.put('thumbnails/c.png', Buffer.from('png'));
      await blobs.delete('thumbnails/c.png');
      assert.equal(await blobs.exists('thumbnails/c.png'), false);
      assert.equal(await blobs.get('thumbnails/c.png'), null);
    });

    it('putStream of more than 5 MB (multipart on S3) returns the size and stores the same bytes', async () => {
      const { blobs } = open();
      const total = 12 * 1024 * 1024 + 12_345;
      const source = generated(total);
      assert.equal(await blobs.putStream('zips/big.zip', source.stream), total);
      const found = await blobs.read('zips/big.zip');
      assert.ok(found);
      assert.equal(found.size, total);
      const hash = createHash('sha256');
      for await (const chunk of found.stream) hash.update(chunk as Buffer);
      assert.equal(hash.digest('hex'), source.sha256);
    });

    it('a small putStream works too', async () => {
      const { blobs } = open();
      assert.equal(await blobs.putStream('zips/small.zip', Readable.from([Buffer.from('zip')])), 3);
      assert.equal((await blobs.get('zips/small.zip'))?.toString(), 'zip');
    });

    it('a failing source stream fails putStream with its own error and stores nothing', async () => {
      const { blobs } = open();
      const failing = new Readable({
        read() {
          this.destroy(new Error('source broke'));
        },
      });
      await assert.rejects(blobs.putStream('zips/broken.zip', failing), /source broke/);
      assert.equal(await blobs.exists('zips/broken.zip'), false);
    });

    it('keys lists every object; stores under other roots or prefixes are isolated', async () => {
      const { blobs, other } = open();
      await blobs.put('documents/iso.pdf', Buffer.from('mine'));
      await other.put('documents/iso.pdf', Buffer.from('theirs'));
      assert.equal((await blobs.get('documents/iso.pdf'))?.toString(), 'mine');
      assert.equal((await other.get('documents/iso.pdf'))?.toString(), 'theirs');
      await other.delete('documents/iso.pdf');
      assert.equal(await blobs.exists('documents/iso.pdf'), true);
      const keys = await allKeys(blobs);
      assert.ok(keys.includes('documents/iso.pdf'));
      assert.ok(keys.includes('zips/big.zip'));
      assert.deepEqual(await allKeys(other), []);
    });

    it('refuses keys that could leave the root or prefix', async () => {
      const { blobs } = open();
      await assert.rejects(blobs.put('../escape', Buffer.from('x')), /invalid blob key/);
      await assert.rejects(blobs.get('/absolute'), /invalid blob key/);
    });

    it('is ready', async () => {
      assert.equal(await open().blobs.ready(), true);
    });
  });
}

let dir = '';
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-blobs-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

contract('FsBlobStore', () => ({
  blobs: new FsBlobStore(path.join(dir, 'one')),
  other: new FsBlobStore(path.join(dir, 'two')),
}));

describe('S3BlobStore on a real S3-compatible server', () => {
  let s3: TestS3;
  const stores: S3BlobStore[] = [];
  const storeAt = (prefix: string) => {
    const store = new S3BlobStore(s3.location(prefix));
    stores.push(store);
    return store;
  };
  before(async () => {
    s3 = await startS3Server();
  });
  after(async () => {
    for (const store of stores) store.close();
    await s3.close();
  });

  contract('S3BlobStore', () => ({ blobs: storeAt('quire/'), other: storeAt('quire-other/') }));

  it('an unreachable store throws BlobStoreUnavailable (service_busy) and is not ready; back once restarted', async () => {
    const blobs = storeAt('outage/');
    await blobs.put('documents/x.pdf', Buffer.from('x'));
    await s3.stop();
    try {
      for (const attempt of [
        () => blobs.put('documents/y.pdf', Buffer.from('y')),
        () => blobs.get('documents/x.pdf'),
        () => blobs.read('documents/x.pdf'),
        () => blobs.exists('documents/x.pdf'),
        () => blobs.delete('documents/x.pdf'),
        () => blobs.putStream('zips/z.zip', Readable.from([Buffer.from('z')])),
      ]) {
        await assert.rejects(attempt(), (err: unknown) => {
          assert.ok(err instanceof BlobStoreUnavailable);
          assert.equal(err.code, 'service_busy');
          assert.equal(err.status, 503);
          return true;
        });
      }
      assert.equal(await blobs.ready(), false);
    } finally {
      await s3.start();
    }
    assert.equal(await blobs.ready(), true);
    assert.equal((await blobs.get('documents/x.pdf'))?.toString(), 'x');
  });
});
