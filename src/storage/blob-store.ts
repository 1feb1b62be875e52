import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './private-files.js';

/**
 * Where PDFs, thumbnails and ZIPs live. Local directory now; an S3-compatible store can implement the
 * same port later. Keys are relative paths such as `documents/<id>.pdf`.
 */
export interface BlobStore {
  /** Writes atomically: readers see the old object or the whole new one, never a partial file. */
  put(key: string, data: Buffer): Promise<void>;
  /** As `put`, from a stream (large objects such as a batch ZIP, never held in memory); returns the size. */
  putStream(key: string, data: Readable): Promise<number>;
  /** A stream of the object, or null when it does not exist. */
  read(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** The whole object, or null. */
  get(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9._/-]*$/;

export class FsBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    // Keys come from our own ids, but refuse anything that could leave the root anyway.
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`invalid blob key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await ensurePrivateDir(path.dirname(target));
    const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(tmp, 'wx', PRIVATE_FILE_MODE);
    try {
      await handle.chmod(PRIVATE_FILE_MODE);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, target);
  }

  async putStream(key: string, data: Readable): Promise<number> {
    const target = this.pathOf(key);
    await ensurePrivateDir(path.dirname(target));
    const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await pipeline(data, createWriteStream(tmp, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
      const handle = await open(tmp, 'r+');
      try {
        await handle.chmod(PRIVATE_FILE_MODE);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return (await stat(target)).size;
  }

  async read(key: string): Promise<{ stream: Readable; size: number } | null> {
    const file = this.pathOf(key);
    try {
      const info = await stat(file);
      return { stream: createReadStream(file), size: info.size };
    } catch {
      return null;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const file = this.pathOf(key);
    try {
      const handle = await open(file, 'r');
      try {
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch {
      return null;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
