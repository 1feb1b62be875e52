import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type Dirent } from 'node:fs';
import { type FileHandle, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../shared/errors.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './private-files.js';

/**
 * Where PDFs, thumbnails and ZIPs live: the local directory (FsBlobStore) or an S3-compatible store
 * (S3BlobStore). Keys are relative paths such as `documents/<id>.pdf`. A store that cannot be reached throws
 * BlobStoreUnavailable; a missing object is null/false, never an error.
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
  /** Readiness probe: can the store be reached right now? */
  ready(): Promise<boolean>;
  /** Every key in the store (for `migrate-data`). */
  keys(): AsyncIterable<string>;
}

/**
 * The store failed (unreachable, 5xx, timeout). A `service_busy` AppError, so clients get 503 with the spec's
 * body and queued renders are retried like any other busy moment; the store's own error stays in `cause`
 * for the log (the error handler logs it), never in the response.
 */
export class BlobStoreUnavailable extends AppError {
  constructor(cause: unknown) {
    super('service_busy', 'File storage is unavailable right now.', undefined, { 'retry-after': '5' });
    this.name = 'BlobStoreUnavailable';
    this.cause = cause;
  }
}

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9._/-]*$/;

/** Keys come from our own ids, but refuse anything that could leave the root (or prefix) anyway. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`invalid blob key: ${key}`);
}

export class FsBlobStore implements BlobStore {
  /** Folders made (or found) already: every stored PDF went through mkdir before. */
  private readonly madeDirs = new Set<string>();

  constructor(private readonly root: string) {}

  /** Opens a new temporary file beside `target`, making its folder first unless it was made before. */
  private async openTemp(target: string): Promise<{ tmp: string; handle: FileHandle }> {
    const dir = path.dirname(target);
    const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    if (this.madeDirs.has(dir)) {
      try {
        return { tmp, handle: await open(tmp, 'wx', PRIVATE_FILE_MODE) };
      } catch (err) {
        // Removed behind our back (a cleanup, a restore): make it again below.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        this.madeDirs.delete(dir);
      }
    }
    await ensurePrivateDir(dir);
    this.madeDirs.add(dir);
    return { tmp, handle: await open(tmp, 'wx', PRIVATE_FILE_MODE) };
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const target = this.pathOf(key);
    const { tmp, handle } = await this.openTemp(target);
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

  /** Low disk is the admission's concern (storing pauses); the directory itself is always there. */
  async ready(): Promise<boolean> {
    return true;
  }

  /** Temporary files of writes in progress are left out. */
  async *keys(): AsyncIterable<string> {
    for await (const entry of walkFiles(this.root, '')) if (!entry.endsWith('.tmp')) yield entry;
  }
}

async function* walkFiles(root: string, relative: string): AsyncIterable<string> {
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(root, relative), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const key = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walkFiles(root, key);
    else if (entry.isFile()) yield key;
  }
}
