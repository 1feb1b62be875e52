import { buildApp } from '../app.js';
import { type Config, redactUrl } from '../config/config.js';
import { type Announce, logProcessWarnings } from '../shared/log-output.js';
import { checkPlansFile, explainStartupFailure } from './startup-problem.js';

/**
 * `quire worker`: background workers (renders, webhook deliveries, retention sweeps) without serving HTTP,
 * against the same data directory as the server. Job leases keep several processes from running one job twice.
 */
export async function runWorkerProcess(config: Config, announce: Announce): Promise<void> {
  checkPlansFile(config);
  const built = await buildApp({ ...config, workers: Math.max(1, config.workers) }).catch((err: unknown) => {
    throw explainStartupFailure(err, config, 'build');
  });
  logProcessWarnings(built.app.log);
  const database = config.databaseUrl ? redactUrl(config.databaseUrl) : config.dataDir;
  const workers = Math.max(1, config.workers);
  announce('worker_started', [`Quire worker running against ${database} with ${workers} worker(s).`], {
    database,
    workers,
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await built.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}
