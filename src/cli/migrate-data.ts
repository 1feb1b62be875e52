import { chmodSync, constants, copyFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Config, optionalPostgresUrl, parseStorageUrl } from '../config/config.js';
import {
  copyBlobs,
  copyRows,
  type Db,
  openBlobStore,
  openDatabase,
  PRIVATE_FILE_MODE,
  TargetNotEmpty,
} from '../storage/index.js';
import type { CliIo } from './context.js';
import { commandFlags } from './flags.js';
import { UsageError } from './usage-error.js';

const USAGE = 'Usage: quire migrate-data --to DATA_DIR|postgres://… [--storage s3://BUCKET/PREFIX?…]';

interface Target {
  db: Db;
  /** The target's data directory when it is a local install (its blobs and server secret go there). */
  dataDir: string | null;
}

/** The target database: a directory is a new SQLite install; a postgres:// URL is opened (and migrated) as at any start. */
async function openTarget(to: string): Promise<Target> {
  if (/^postgres(ql)?:\/\//i.test(to)) {
    const url = optionalPostgresUrl(to, '--to') as string;
    return { db: await openDatabase('', url), dataDir: null };
  }
  const dataDir = path.resolve(to);
  return { db: await openDatabase(dataDir), dataDir };
}

/**
 * Signed links and sealed webhook secrets are keyed by the server secret: the copy must keep the source's.
 * A target with a different secret of its own is refused rather than silently breaking either install.
 */
function carryServerSecret(sourceDir: string, targetDir: string): void {
  const from = path.join(sourceDir, 'server-secret');
  const to = path.join(targetDir, 'server-secret');
  if (!existsSync(from)) return;
  if (existsSync(to)) {
    if (readFileSync(to, 'latin1').trim() !== readFileSync(from, 'latin1').trim())
      throw new UsageError(
        `${to} holds a different server secret; remove it (nothing signed with it survives).`,
      );
    return;
  }
  copyFileSync(from, to, constants.COPYFILE_EXCL);
  chmodSync(to, PRIVATE_FILE_MODE);
}

/** Where the blobs go: --storage, else the target's own directory, else (PostgreSQL only) where they are. */
async function targetBlobs(
  target: Target,
  storage: string | undefined,
): Promise<Awaited<ReturnType<typeof openBlobStore>> | null> {
  if (storage !== undefined) {
    const location = parseStorageUrl(storage, '--storage');
    if (!location) throw new UsageError('--storage must be an s3:// URL.');
    return openBlobStore(target.dataDir ?? '', location);
  }
  return target.dataDir ? openBlobStore(target.dataDir, null) : null;
}

/**
 * `quire migrate-data`: copies this install (QUIRE_DATA_DIR's database, the blobs of QUIRE_STORAGE_URL or
 * DATA_DIR/blobs) to another database and blob store, verifying row counts and each blob's size and SHA-256.
 * Run it with the server and workers stopped: rows written during the copy would be missed.
 */
export async function migrateData(config: Config, args: string[], io: CliIo): Promise<void> {
  // With --json, one document at the end instead of a line per step.
  const report: { tables: { table: string; rows: number }[]; blobs: unknown; server_secret: string } = {
    tables: [],
    blobs: null,
    server_secret: 'copied',
  };
  const print = (line: string) => {
    if (!io.json) io.print(line);
  };
  const { values } = commandFlags(args, { to: { type: 'string' }, storage: { type: 'string' } });
  if (!values.to) throw new UsageError(USAGE);
  if (path.resolve(values.to) === config.dataDir)
    throw new UsageError("--to is this install's own data directory.");
  if (!existsSync(path.join(config.dataDir, 'quire.sqlite')))
    throw new UsageError(`No install to copy in ${config.dataDir} (set QUIRE_DATA_DIR).`);
  // Parsed before anything is opened or created, so a bad URL leaves no empty target behind.
  const storage = values.storage === undefined ? null : parseStorageUrl(values.storage, '--storage');
  if (storage && JSON.stringify(storage) === JSON.stringify(config.storage))
    throw new UsageError('--storage is where the blobs already are.');
  const target = await openTarget(values.to);
  const source = await openDatabase(config.dataDir);
  const from = await openBlobStore(config.dataDir, config.storage);
  const to = await targetBlobs(target, values.storage);
  try {
    const counts = await copyRows(source, target.db);
    report.tables = counts;
    for (const { table, rows } of counts) print(`${table.padEnd(22)} ${rows} row(s), counts match`);
    if (to) {
      const blobs = await copyBlobs(from.blobs, to.blobs);
      report.blobs = { objects: blobs.objects, bytes: blobs.bytes };
      print(
        `blobs                  ${blobs.objects} object(s), ${blobs.bytes} bytes, sizes and SHA-256 match`,
      );
    } else {
      print('blobs                  left in place (no --storage): keep this data directory for them');
    }
    if (target.dataDir) carryServerSecret(config.dataDir, target.dataDir);
    else {
      report.server_secret = 'keep';
      print(
        `Keep ${path.join(config.dataDir, 'server-secret')} in the new install's QUIRE_DATA_DIR: links and webhook secrets depend on it.`,
      );
    }
    if (io.json) io.print(JSON.stringify(report));
  } catch (err) {
    if (err instanceof TargetNotEmpty) throw new UsageError(err.message);
    throw err;
  } finally {
    from.close();
    to?.close();
    await source.destroy();
    await target.db.destroy();
  }
}
