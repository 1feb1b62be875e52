import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Everything under the data directory is the service's alone: the database holds key hashes and
 * encrypted webhook secrets, the blobs hold customers' documents. Directories are created 0700 and files
 * 0600 whatever the process umask, and the modes are set explicitly after creation because the mode
 * given to mkdir/open is only an upper bound that the umask narrows.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The directories a recursive mkdir created, from `dir` up to `firstCreated` (what mkdir returned). */
function createdChain(dir: string, firstCreated: string | undefined): string[] {
  if (!firstCreated) return [];
  const chain: string[] = [];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    chain.push(current);
    if (current === path.resolve(firstCreated) || current === path.dirname(current)) return chain;
  }
}

/** Creates `dir` and its missing parents owner-only. An existing directory keeps the mode it has. */
export function ensurePrivateDirSync(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const created of createdChain(dir, first)) chmodSync(created, PRIVATE_DIR_MODE);
}

/** {@link ensurePrivateDirSync} without blocking the event loop (blob writes on the request path). */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const created of createdChain(dir, first)) await chmod(created, PRIVATE_DIR_MODE);
}

/** Creates a new owner-only file and opens it for writing; fails with EEXIST when the file exists. */
export function createPrivateFileSync(file: string): number {
  const fd = openSync(file, 'wx', PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

/**
 * Creates an empty owner-only file unless it exists. Used for the SQLite database before SQLite opens it:
 * SQLite gives its -wal and -shm files the database file's mode, so they are owner-only too.
 */
export function ensurePrivateFileSync(file: string): void {
  try {
    closeSync(createPrivateFileSync(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
