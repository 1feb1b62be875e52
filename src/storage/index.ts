export { type BlobStore, FsBlobStore } from './blob-store.js';
export { type Db, openDatabase, pingDatabase } from './db.js';
export type { Database } from './schema.js';
export { loadServerSecret } from './server-secret.js';
