export { BackupError, backupDataDir, restoreDataDir } from './backup.js';
export { type BlobStore, BlobStoreUnavailable } from './blob-store.js';
export { chunks } from './chunks.js';
export { copyBlobs } from './copy-blobs.js';
export { copyRows, TargetNotEmpty } from './copy-rows.js';
export {
  type Db,
  isPostgres,
  listen,
  lockKey,
  notify,
  openDatabase,
  pingDatabase,
  skipLocked,
  withKeyLock,
} from './db.js';
export { openBlobStore } from './open-blob-store.js';
export { countPerCreatedDay } from './per-day.js';
export { PRIVATE_FILE_MODE } from './private-files.js';
export {
  countRows,
  deleteOlderThan,
  inKeyScope,
  keyScopedFinder,
  newestFirstPage,
  ofTeam,
  valuesOf,
} from './queries.js';
export { DatabaseFailureCounter, DatabaseRateCounter, type FailureCount } from './rate-windows.js';
export { DatabaseTeamSlots } from './render-leases.js';
export type { Database } from './schema.js';
export { loadServerSecret } from './server-secret.js';
export { readServerState, recordServerState } from './server-state.js';
