import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js';

/** What a data directory holds that a backup needs (DATA_DIR/outbox, the unsent-email folder, is left out). */
const DB_FILE = 'quire.sqlite';
const BLOB_DIR = 'blobs';
const SECRET_FILE = 'server-secret';
const MANIFEST = 'quire-backup.json';

export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupSummary {
  databaseBytes: number;
  files: number;
}

/** A target directory must be new or empty: a backup or restore never merges into existing data. */
function requireEmptyDir(dir: string, what: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new BackupError(`${what} ${dir} is not empty.`);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Stored files, without the `.tmp` files of writes in progress. */
const notTemporary = (source: string) => !source.endsWith('.tmp');

/**
 * A consistent copy of a data directory while the service runs: the database through SQLite's online backup
 * (a snapshot, writers keep going), then the stored files, then the server secret. Files are copied after the
 * snapshot: a document row is committed only after its file is written, so every file the snapshot refers
 * to exists by then; files newer than the snapshot are harmless extras.
 */
export async function backupDataDir(dataDir: string, target: string): Promise<BackupSummary> {
  const dbFile = path.join(dataDir, DB_FILE);
  if (!existsSync(dbFile)) throw new BackupError(`No Quire database at ${dbFile} (check QUIRE_DATA_DIR).`);
  requirePrivateDir(target);
  requireEmptyDir(target, 'Backup directory');
  const source = new SqliteDatabase(dbFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(path.join(target, DB_FILE));
  } finally {
    source.close();
  }
  const blobs = path.join(dataDir, BLOB_DIR);
  if (existsSync(blobs))
    cpSync(blobs, path.join(target, BLOB_DIR), { recursive: true, filter: notTemporary });
  cpSync(path.join(dataDir, SECRET_FILE), path.join(target, SECRET_FILE));
  const summary = {
    databaseBytes: statSync(path.join(target, DB_FILE)).size,
    files: countFiles(path.join(target, BLOB_DIR)),
  };
  writeFileSync(
    path.join(target, MANIFEST),
    `${JSON.stringify({ created_at: new Date().toISOString(), ...summary }, null, 2)}\n`,
    { mode: PRIVATE_FILE_MODE },
  );
  makePrivate(target);
  return summary;
}

/**
 * A backup holds the server secret, key hashes and every stored document: a folder that exists already must
 * be owner-only (0700), or another local user could read the copy as it is written.
 */
function requirePrivateDir(dir: string): void {
  if (!existsSync(dir)) return;
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new BackupError(
      `Backup directory ${dir} is open to other users (mode ${mode.toString(8).padStart(4, '0')}); a backup holds the server secret and every document. Run \`chmod 700 ${dir}\` or name a new directory.`,
    );
  }
}

/**
 * Directories 0700 and files 0600 under `dir`, whatever the umask: SQLite's backup file and cpSync's
 * directories get the umask's modes, and copied files keep their source's. The folder itself is owner-only
 * from the start, so nothing was reachable before this.
 */
function makePrivate(dir: string): void {
  chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const at = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) chmodSync(at, PRIVATE_DIR_MODE);
    else if (entry.isFile()) chmodSync(at, PRIVATE_FILE_MODE);
  }
}

/**
 * Restores a backup into an empty (or absent) data directory. The server must not run on it; migrations of a
 * newer Quire run at its next start.
 */
export function restoreDataDir(source: string, dataDir: string): BackupSummary {
  if (!existsSync(path.join(source, MANIFEST)) || !existsSync(path.join(source, DB_FILE)))
    throw new BackupError(`${source} is not a Quire backup (no ${MANIFEST} and ${DB_FILE}).`);
  requireEmptyDir(dataDir, 'QUIRE_DATA_DIR');
  cpSync(path.join(source, DB_FILE), path.join(dataDir, DB_FILE));
  cpSync(path.join(source, SECRET_FILE), path.join(dataDir, SECRET_FILE));
  if (existsSync(path.join(source, BLOB_DIR)))
    cpSync(path.join(source, BLOB_DIR), path.join(dataDir, BLOB_DIR), { recursive: true });
  makePrivate(dataDir);
  return {
    databaseBytes: statSync(path.join(dataDir, DB_FILE)).size,
    files: countFiles(path.join(dataDir, BLOB_DIR)),
  };
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).length;
}
