// `npm run test:s3 [filters…]`: the integration suite (or the filtered part) with every test server's blobs
// on a real S3-compatible server (s3rver on loopback) instead of its data directory.
import { spawnSync } from 'node:child_process';
import { startS3Server } from './s3.js';

const s3 = await startS3Server();
const args = process.argv.slice(2);
const result = spawnSync(
  process.execPath,
  ['scripts/run-tests.mjs', ...(args.length ? args : ['integration'])],
  {
    stdio: 'inherit',
    env: { ...process.env, QUIRE_TEST_STORAGE_URL: s3.url('suite/') },
  },
);
await s3.close();
process.exit(result.status ?? 1);
