/**
 * A worker process for the crash test: `node --import tsx crash-worker.ts <dataDir> <hang|run>`.
 * It runs the real render job handler (with a stand-in renderer, no Chromium) and the real webhook delivery
 * jobs on the one queue. In `hang` mode renders of documents with n >= 8 never finish (so they are claimed
 * when the process is killed); in `run` mode every render succeeds at once.
 */
import { createEmailSender } from '../../../src/email/sender.js';
import { processPools, startBackground } from '../../../src/jobs/background.js';
import { JobRegistry } from '../../../src/jobs/registry.js';
import { systemClock } from '../../../src/shared/clock.js';
import { openDatabase } from '../../../src/storage/db.js';
import { loadServerSecret } from '../../../src/storage/server-secret.js';
import { createWebhookJobs } from '../../../src/webhooks/delivery-job.js';
import { createSecretBox } from '../../../src/webhooks/secret-box.js';
import { crashProduction } from './crash-production.js';

const [dataDir, mode] = process.argv.slice(2);
if (!dataDir || (mode !== 'hang' && mode !== 'run'))
  throw new Error('usage: crash-worker.ts DATA_DIR hang|run');

const db = await openDatabase(dataDir, process.env.QUIRE_DATABASE_URL || null);
const log = { info: () => {}, warn: () => {}, error: (o: object, m: string) => console.error(m, o) };

const production = crashProduction(db, dataDir, mode === 'hang');
const registry = new JobRegistry();
const renderJob = production.renderJob();
registry.register(renderJob.kind, renderJob.handler, renderJob.options);
const webhookJobs = createWebhookJobs({
  db,
  box: createSecretBox(loadServerSecret(dataDir)),
  allowPrivate: true,
  // Longer than the whole first phase: the hanging receiver's attempts are still in flight at the kill.
  timeoutMs: 30_000,
  email: createEmailSender({ smtpUrl: null, from: 'x@localhost', log }),
  log,
});
for (const job of webhookJobs.jobs) registry.register(job.kind, job.handler, job.options);
startBackground({
  db,
  clock: systemClock,
  registry,
  // One worker and the one job it runs ahead (HEAVY_POOL_AHEAD): two renders at once, the growth plan's two
  // background slots, so the renders start in queue order (none deferred) and the hanging ones are the last.
  pools: processPools({ jobs: [renderJob, ...webhookJobs.jobs], heavyWorkers: 1 }),
  log,
  leaseMs: 1_500,
  pollMs: 100,
});
process.stdout.write('ready\n');
