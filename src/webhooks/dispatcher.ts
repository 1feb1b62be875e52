import { hostname } from 'node:os';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/db.js';
import type { HttpDeliverer } from './deliver-http.js';
import { claimDelivery, type DeliveryRow, recordAttempt } from './delivery-store.js';
import { signingSecrets } from './endpoints.js';
import type { SecretBox } from './secret-box.js';
import { signatureHeader } from './signing.js';

/**
 * The delivery loop: leases due deliveries (at most `maxInFlight` at once in this process, at most 2 per
 * endpoint overall), signs and sends each, and records the result. Leases make it crash safe: a delivery
 * whose process died is sent again after its lease expires (spec: events may arrive more than once).
 */
export interface DispatcherOptions {
  db: Db;
  clock: Clock;
  box: SecretBox;
  deliverer: HttpDeliverer;
  /** Attempt time limit; the lease outlives it so a live attempt is never taken over. */
  timeoutMs: number;
  maxInFlight?: number;
  pollMs?: number;
  /** Called after an endpoint was disabled for failing (the owner is notified). */
  onDisabled?: (endpointId: string) => Promise<void>;
  log?: { error(obj: Record<string, unknown>, msg: string): void };
}

export interface Dispatcher {
  /** Look for due deliveries now. */
  wake(): void;
  /** Resolves when nothing is in flight (tests). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** An attempt is aborted at the timeout, so twice that (plus a second for the database) outlives any live one. */
function leaseFor(timeoutMs: number): number {
  return timeoutMs * 2 + 1_000;
}

export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const maxInFlight = options.maxInFlight ?? 8;
  const pollMs = options.pollMs ?? 1_000;
  const owner = `${hostname()}:${process.pid}:deliveries:${Math.random().toString(36).slice(2, 10)}`;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let filling = false;
  let again = false;

  const fill = async (): Promise<void> => {
    if (filling) {
      again = true;
      return;
    }
    filling = true;
    try {
      do {
        again = false;
        while (!stopped && inFlight.size < maxInFlight) {
          const delivery = await claimDelivery(options.db, options.clock, {
            owner,
            leaseMs: leaseFor(options.timeoutMs),
          });
          if (!delivery) break;
          const task = deliverOne(options, delivery).finally(() => {
            inFlight.delete(task);
            void fill();
          });
          inFlight.add(task);
        }
      } while (again && !stopped);
    } catch (err) {
      options.log?.error({ err }, 'webhook dispatcher error');
    } finally {
      filling = false;
    }
  };
  const tick = () => {
    if (stopped) return;
    void fill().finally(() => {
      if (!stopped) timer = setTimeout(tick, pollMs);
    });
  };
  tick();
  return {
    wake: () => void fill(),
    async idle() {
      while (inFlight.size > 0 || filling) await Promise.allSettled([...inFlight, sleep(5)]);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function deliverOne(options: DispatcherOptions, delivery: DeliveryRow): Promise<void> {
  const { db, clock } = options;
  try {
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', delivery.endpoint_id)
      .executeTakeFirst();
    const event = await db
      .selectFrom('webhook_events')
      .select('envelope_json')
      .where('id', '=', delivery.event_id)
      .executeTakeFirst();
    if (!endpoint || !event) return;
    const now = clock.now();
    // The stored text is the exact body: re-sends carry the same bytes and event id (spec: Event envelope).
    const rawBody = event.envelope_json;
    const signature = signatureHeader(
      signingSecrets(endpoint, options.box, now),
      Math.floor(now.getTime() / 1000),
      rawBody,
    );
    const result = await options.deliverer.attempt({
      url: endpoint.url,
      rawBody,
      signature,
      eventId: delivery.event_id,
      eventType: delivery.event_type,
    });
    const outcome = await recordAttempt(db, clock, delivery, result);
    if (outcome.disabledEndpointId && options.onDisabled)
      await options.onDisabled(outcome.disabledEndpointId);
  } catch (err) {
    options.log?.error({ err, deliveryId: delivery.id }, 'webhook delivery error');
  }
}
