/**
 * A worker process for the crash test: `node --import tsx crash-worker.ts <dataDir> <hang|run>`.
 * It runs the real render job handler (with a stand-in renderer, no Chromium) and the real webhook delivery
 * jobs on the one queue. In `hang` mode renders of documents with n >= 8 never finish (so they are claimed
 * when the process is killed); in `run` mode every render succeeds at once.
 */
import { loadPlans } from '../../../src/accounts/plans.js';
import { createEmailSender } from '../../../src/email/sender.js';
import { processPools, startBackground } from '../../../src/jobs/background.js';
import { RENDER_JOB } from '../../../src/jobs/enqueue-render.js';
import { JobRegistry } from '../../../src/jobs/registry.js';
import {
  type BackgroundRenderer,
  createRenderJobHandler,
  type RenderJobDeps,
  renderJobOptions,
} from '../../../src/jobs/render-job.js';
import { systemClock } from '../../../src/shared/clock.js';
import { MemoryTeamSlots } from '../../../src/shared/team-slots.js';
import { openDatabase } from '../../../src/storage/db.js';
import { loadServerSecret } from '../../../src/storage/server-secret.js';
import { createWebhookJobs } from '../../../src/webhooks/delivery-job.js';
import { createSecretBox } from '../../../src/webhooks/secret-box.js';

const [dataDir, mode] = process.argv.slice(2);
if (!dataDir || (mode !== 'hang' && mode !== 'run'))
  throw new Error('usage: crash-worker.ts DATA_DIR hang|run');

const db = await openDatabase(dataDir);
const log = { info: () => {}, warn: () => {}, error: (o: object, m: string) => console.error(m, o) };

const renderer: BackgroundRenderer = {
  async render({ request, signal }) {
    const { n } = request as { n: number };
    if (mode === 'hang' && n >= 8) {
      await new Promise((resolve) => signal.addEventListener('abort', resolve));
      return { ok: false, code: 'render_failed', message: 'stopped', rendered: true };
    }
    return { ok: true, changes: { pages: 1, bytes: 100 + n, mode: 'fast', counted: 1 } };
  },
};
const renderDeps: RenderJobDeps = {
  clock: systemClock,
  plans: loadPlans(null),
  slots: new MemoryTeamSlots(),
  renderer,
  present: (row) => ({ id: row.id, status: row.status, pages: row.pages }),
};
const registry = new JobRegistry();
registry.register(RENDER_JOB, createRenderJobHandler(renderDeps), renderJobOptions(renderDeps));
const webhookJobs = createWebhookJobs({
  db,
  box: createSecretBox(loadServerSecret(dataDir)),
  allowPrivate: true,
  // Longer than the whole first phase: the hanging receiver's attempts are still in flight at the kill.
  timeoutMs: 30_000,
  email: createEmailSender({ smtpUrl: null, from: 'x@localhost', log }),
  log,
});
webhookJobs.register(registry);
startBackground({
  db,
  clock: systemClock,
  registry,
  pools: processPools({ heavyKinds: [RENDER_JOB], heavyWorkers: 2, lightKinds: webhookJobs.kinds }),
  log,
  leaseMs: 1_500,
  pollMs: 100,
});
process.stdout.write('ready\n');
