import type { Config } from '../config/config.js';
import { BackupError, backupDataDir, restoreDataDir } from '../storage/index.js';
import type { CliIo } from './context.js';
import { UsageError } from './usage-error.js';

function targetOf(args: string[], usage: string): string {
  const [dir, ...extra] = args;
  if (!dir || dir.startsWith('-') || extra.length > 0) throw new UsageError(`Usage: ${usage}`);
  return dir;
}

/** `quire backup DIR`: safe while the server runs. */
export async function backupCommand(config: Config, args: string[], io: CliIo): Promise<void> {
  const dir = targetOf(args, 'quire backup DIR');
  refuseExternalStores(config);
  const summary = await backupDataDir(config.dataDir, dir).catch(asUsage);
  io.print(
    io.json
      ? JSON.stringify({ backup: dir, database_bytes: summary.databaseBytes, files: summary.files })
      : `Backed up ${config.dataDir} to ${dir}: database ${summary.databaseBytes} bytes, ${summary.files} stored files, server secret.`,
  );
}

/** `quire restore DIR`: into an empty QUIRE_DATA_DIR, with the server stopped. */
export async function restoreCommand(config: Config, args: string[], io: CliIo): Promise<void> {
  const dir = targetOf(args, 'quire restore DIR');
  refuseExternalStores(config);
  let summary: ReturnType<typeof restoreDataDir>;
  try {
    summary = restoreDataDir(dir, config.dataDir);
  } catch (err) {
    return asUsage(err);
  }
  io.print(
    io.json
      ? JSON.stringify({ restored: dir, data_dir: config.dataDir, files: summary.files })
      : `Restored ${dir} into ${config.dataDir}: ${summary.files} stored files. Start Quire on it (migrations run at start).`,
  );
}

/** The command copies the embedded install; a database server and an object store have their own tools. */
function refuseExternalStores(config: Config): void {
  if (config.databaseUrl)
    throw new UsageError(
      "QUIRE_DATABASE_URL is set: back up PostgreSQL with pg_dump (and the data directory's server-secret).",
    );
  if (config.storage)
    throw new UsageError(
      "QUIRE_STORAGE_URL is set: this command copies DATA_DIR/blobs only; use the object store's versioning or replication for the files.",
    );
}

function asUsage(err: unknown): never {
  if (err instanceof BackupError) throw new UsageError(err.message);
  throw err;
}
