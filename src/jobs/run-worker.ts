import type { Config } from '../config/config.js';
import { createEmailSender } from '../email/sender.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { type Db, openDatabase } from '../storage/db.js';
import { loadServerSecret } from '../storage/server-secret.js';
import { type Background, type BackgroundLog, startBackground } from './background.js';
import { JobRegistry } from './worker.js';

/**
 * `quire worker`: background workers without the HTTP API, against the same database as the server
 * (SQLite WAL; leases keep several processes from running one job twice). The caller supplies the job
 * handlers (e.g. the render handler with its Chromium pool) and stops on SIGTERM.
 */
export async function runWorker(
  config: Config,
  options: {
    registerHandlers: (
      registry: JobRegistry,
      ctx: { db: Db; clock: Clock; serverSecret: Buffer },
    ) => void | Promise<void>;
    log: BackgroundLog;
    clock?: Clock;
  },
): Promise<{ background: Background; stop(): Promise<void> }> {
  const clock = options.clock ?? systemClock;
  const db = await openDatabase(config.dataDir);
  const serverSecret = loadServerSecret(config.dataDir);
  const registry = new JobRegistry();
  await options.registerHandlers(registry, { db, clock, serverSecret });
  const email = createEmailSender({ smtpUrl: config.smtpUrl, from: config.smtpFrom, log: options.log });
  const background = startBackground({
    db,
    clock,
    config,
    serverSecret,
    registry,
    email,
    log: options.log,
    // A worker process exists to work: at least one worker even when the server's default is 0.
    workers: Math.max(1, config.workers),
  });
  return {
    background,
    async stop() {
      await background.stop();
      email.close();
      await db.destroy();
    },
  };
}
