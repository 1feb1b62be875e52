/**
 * A worker process for the crash test: `node --import tsx crash-worker.ts <dataDir> <hang|run>`.
 * In `hang` mode jobs with n >= 8 never finish (so they are claimed when the process is killed);
 * in `run` mode every job finishes. A finished job writes its effect and its event in the commit.
 */
import { sql } from 'kysely';
import { loadConfig } from '../../../src/config/config.js';
import { createEmailSender } from '../../../src/email/sender.js';
import { startBackground } from '../../../src/jobs/background.js';
import { JobRegistry } from '../../../src/jobs/worker.js';
import { systemClock } from '../../../src/shared/clock.js';
import { openDatabase } from '../../../src/storage/db.js';
import { loadServerSecret } from '../../../src/storage/server-secret.js';
import { recordEvent } from '../../../src/webhooks/outbox.js';

const [dataDir, mode] = process.argv.slice(2);
if (!dataDir || (mode !== 'hang' && mode !== 'run'))
  throw new Error('usage: crash-worker.ts DATA_DIR hang|run');

const db = await openDatabase(dataDir);
const registry = new JobRegistry();
registry.register('crash-test', async (job, ctx) => {
  const { n, teamId } = job.payload as { n: number; teamId: string };
  if (mode === 'hang' && n >= 8) {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
    return { kind: 'retry', delayMs: 0, error: 'stopped' };
  }
  return {
    kind: 'succeeded',
    commit: async (trx) => {
      await sql`insert into crash_effects (job_id, n) values (${job.id}, ${n})`.execute(trx);
      await recordEvent(trx, ctx.clock, { teamId, livemode: true, type: 'pdf.created', data: { n } });
    },
  };
});
const log = { info: () => {}, warn: () => {}, error: (o: object, m: string) => console.error(m, o) };
const config = loadConfig({}, { dataDir, allowPrivateWebhooks: true, webhookTimeoutMs: 5_000 });
startBackground({
  db,
  clock: systemClock,
  config,
  serverSecret: loadServerSecret(dataDir),
  registry,
  email: createEmailSender({ smtpUrl: null, from: 'x@localhost', log }),
  log,
  workers: 2,
  leaseMs: 1_500,
  pollMs: 100,
});
process.stdout.write('ready\n');
