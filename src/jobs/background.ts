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
 * Everything that runs in the background of one process: job workers and the webhook delivery loop, plus
 * the retention sweep of delivery logs and finished jobs for the app's Sweeper. Used by the server
 * (config.workers in-process workers) and by `quire worker`.
 */
export interface BackgroundLog {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

export interface BackgroundOptions {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'allowPrivateWebhooks' | 'webhookTimeoutMs'>;
  serverSecret: Buffer;
  registry: JobRegistry;
  email: EmailSender;
  log: BackgroundLog;
  /** Job workers in this process (0: none; deliveries still run). */
  workers: number;
  leaseMs?: number;
  pollMs?: number;
}

export interface Background {
  wakeJobs(): void;
  wakeDeliveries(): void;
  /** One retention sweep (delivery log > 30 days, finished jobs); the server's Sweeper runs it periodically. */
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
  return {
    wakeJobs: () => workers?.wake(),
    wakeDeliveries: () => dispatcher.wake(),
    sweep,
    dispatcher,
    async stop() {
      await workers?.stop();
      await dispatcher.stop();
      await deliverer.close();
    },
  };
}
