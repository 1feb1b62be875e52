import type { Config } from '../config/config.js';
import type { EmailSender } from '../email/sender.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/db.js';
import { createHttpDeliverer } from '../webhooks/deliver-http.js';
import { sweepDeliveryLog } from '../webhooks/delivery-log.js';
import { createDisableNotifier } from '../webhooks/disable-notice.js';
import { type Dispatcher, startDispatcher } from '../webhooks/dispatcher.js';
import { createSecretBox } from '../webhooks/secret-box.js';
import { sweepFinishedJobs } from './retention.js';
import { type JobRegistry, startWorkers, type Workers } from './worker.js';

/**
 * Everything that runs in the background of one process: job workers, the webhook delivery loop and the
 * retention sweep of delivery logs and finished jobs. Used by the server (config.workers in-process
 * workers) and by `quire worker`.
 */
export interface BackgroundLog {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

export interface BackgroundOptions {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'allowPrivateWebhooks' | 'webhookTimeoutMs' | 'sweepIntervalS'>;
  serverSecret: Buffer;
  registry: JobRegistry;
  email: EmailSender;
  log: BackgroundLog;
  /** Job workers in this process (0: none, deliveries and sweeps still run). */
  workers: number;
  leaseMs?: number;
  pollMs?: number;
}

export interface Background {
  wakeJobs(): void;
  wakeDeliveries(): void;
  /** One retention sweep now (also runs every config.sweepIntervalS). */
  sweep(): Promise<{ deliveries: number; jobs: number }>;
  dispatcher: Dispatcher;
  stop(): Promise<void>;
}

export function startBackground(options: BackgroundOptions): Background {
  const { db, clock, config, log } = options;
  const deliverer = createHttpDeliverer({
    allowPrivate: config.allowPrivateWebhooks,
    timeoutMs: config.webhookTimeoutMs,
  });
  const dispatcher = startDispatcher({
    db,
    clock,
    box: createSecretBox(options.serverSecret),
    deliverer,
    timeoutMs: config.webhookTimeoutMs,
    pollMs: options.pollMs,
    onDisabled: createDisableNotifier({ db, email: options.email, log }),
    log,
  });
  const workers: Workers | null =
    options.workers > 0
      ? startWorkers({
          db,
          clock,
          registry: options.registry,
          concurrency: options.workers,
          leaseMs: options.leaseMs,
          pollMs: options.pollMs,
          log,
        })
      : null;
  const sweep = async () => ({
    deliveries: await sweepDeliveryLog(db, clock),
    jobs: await sweepFinishedJobs(db, clock),
  });
  const sweeper = setInterval(() => {
    sweep().catch((err: unknown) => log.error({ err }, 'retention sweep failed'));
  }, config.sweepIntervalS * 1000);
  sweeper.unref();
  return {
    wakeJobs: () => workers?.wake(),
    wakeDeliveries: () => dispatcher.wake(),
    sweep,
    dispatcher,
    async stop() {
      clearInterval(sweeper);
      await workers?.stop();
      await dispatcher.stop();
      await deliverer.close();
    },
  };
}
