// `npm run test:s3 [filters…]`: the integration suite (or the filtered part) with every test server's blobs
// on a real S3-compatible server (s3rver on loopback) instead of its data directory.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startS3Server } from './s3.js';

const s3 = await startS3Server();
const args = process.argv.slice(2);
// Not spawnSync: s3rver runs in this process and must keep answering while the tests run.
const child = spawn(process.execPath, ['scripts/run-tests.mjs', ...(args.length ? args : ['integration'])], {
  stdio: 'inherit',
  env: { ...process.env, QUIRE_TEST_STORAGE_URL: s3.url('suite/') },
});
const [code] = (await once(child, 'exit')) as [number | null];
await s3.close();
process.exit(code ?? 1);
