import { Type } from 'typebox';
import {
  defineJobKind,
  enqueueJob,
  type JobDefinition,
  type JobHandler,
  jobInput,
  jobKind,
  type PayloadOf,
} from '../jobs/index.js';
import type { Clock } from '../shared/clock.js';
import type { Db } from '../storage/index.js';
import { type AttemptResult, createHttpDeliverer, type HttpDeliverer } from './deliver-http.js';
import { mayMove } from './delivery-states.js';
import { type DeliveryRow, dropDelivery, recordAttempt } from './delivery-store.js';
import { createDisableNotifier } from './disable-notice.js';
import { type EndpointRow, signingSecrets } from './endpoints.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './schedule.js';
import type { SecretBox } from './secret-box.js';
import { signatureHeader } from './signing.js';

/**
 * Webhook deliveries on the shared job queue. Each pending delivery has one `webhook_delivery` job that
 * makes its attempts: the worker applies the schedule (the kind's backoff, 8 attempts; 1 for test events
 * and manual retries), the job's concurrency key caps each endpoint at 2 attempts in flight across every
 * process (spec: Delivery 6), and each attempt's result is written to the delivery log in the transaction
 * that moves the job on. A process killed mid-attempt leaves the job's lease to expire and the attempt is
 * made again: a receiver may get an event twice (spec: "more than once"), never zero times.
 */
const WEBHOOK_DELIVERY_JOB = jobKind('webhook_delivery', Type.Object({ deliveryId: Type.String() }));
/** The email to a team whose endpoint was disabled for failing, queued in the disabling transaction. */
const WEBHOOK_DISABLED_NOTICE_JOB = jobKind(
  'webhook_disabled_notice',
  Type.Object({ endpointId: Type.String() }),
);

/** At most 2 deliveries to one endpoint in flight at once (spec: Delivery 6), across all processes. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 2;

const NOTICE_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000];

/**
 * Queues the job that makes a pending delivery's attempts and links it from the log entry. Call inside the
 * transaction that made the delivery pending.
 */
export async function enqueueDeliveryJob(
  trx: Db,
  clock: Clock,
  delivery: { id: string; endpoint_id: string },
  options: { singleAttempt: boolean },
): Promise<void> {
  const job = await enqueueJob(
    trx,
    clock,
    jobInput(WEBHOOK_DELIVERY_JOB, {
      // The service's own work: deliveries never count against a team's open_jobs.
      teamId: null,
      test: false,
      payload: { deliveryId: delivery.id },
      ...(options.singleAttempt ? { maxAttempts: 1 } : {}),
      concurrency: { key: `webhook_endpoint:${delivery.endpoint_id}`, limit: MAX_IN_FLIGHT_PER_ENDPOINT },
    }),
  );
  await trx.updateTable('webhook_deliveries').set({ job_id: job.id }).where('id', '=', delivery.id).execute();
}

async function enqueueDisabledNotice(trx: Db, clock: Clock, endpointId: string): Promise<void> {
  await enqueueJob(
    trx,
    clock,
    jobInput(WEBHOOK_DISABLED_NOTICE_JOB, { teamId: null, test: false, payload: { endpointId } }),
  );
}

export interface WebhookJobsDeps {
  db: Db;
  box: SecretBox;
  /** config.allowPrivateWebhooks */
  allowPrivate: boolean;
  /** config.webhookTimeoutMs: the time a target has to answer. */
  timeoutMs: number;
  email: Parameters<typeof createDisableNotifier>[0]['email'];
  log: Parameters<typeof createDisableNotifier>[0]['log'];
  /** Tests may put their own sender in; by default an HTTP deliverer is made (and closed by close()). */
  deliverer?: HttpDeliverer;
}

export interface WebhookJobs {
  /** Both kinds run in every process's light pool: they wait on the network. */
  jobs: readonly JobDefinition[];
  /** Closes the HTTP connections of the deliverer; call after the workers stopped. */
  close(): Promise<void>;
}

/** The webhook capability's job kinds, for the composition root to register and to run. */
export function createWebhookJobs(deps: WebhookJobsDeps): WebhookJobs {
  const deliverer =
    deps.deliverer ?? createHttpDeliverer({ allowPrivate: deps.allowPrivate, timeoutMs: deps.timeoutMs });
  const notify = createDisableNotifier({ db: deps.db, email: deps.email, log: deps.log });
  return {
    jobs: [
      defineJobKind({
        kind: WEBHOOK_DELIVERY_JOB,
        pool: 'light',
        handler: createDeliveryHandler(deps.box, deliverer),
        maxAttempts: MAX_ATTEMPTS,
        retryDelaysMs: RETRY_DELAYS_MS,
        // Workers died during every attempt: the log says so instead of leaving the delivery pending.
        abandon: (trx, job, error) => dropDelivery(trx, job.payload.deliveryId, error.message),
      }),
      defineJobKind({
        kind: WEBHOOK_DISABLED_NOTICE_JOB,
        pool: 'light',
        handler: async (job) => {
          if (await notify(job.payload.endpointId)) return { kind: 'succeeded' };
          return {
            kind: 'failed',
            error: { code: 'send_failed', message: 'email not sent' },
            retryable: true,
          };
        },
        maxAttempts: NOTICE_RETRY_DELAYS_MS.length + 1,
        retryDelaysMs: NOTICE_RETRY_DELAYS_MS,
      }),
    ],
    close: () => (deps.deliverer ? Promise.resolve() : deliverer.close()),
  };
}

function createDeliveryHandler(
  box: SecretBox,
  deliverer: HttpDeliverer,
): JobHandler<PayloadOf<typeof WEBHOOK_DELIVERY_JOB>> {
  return async (job, ctx) => {
    const target = await findTarget(ctx.db, job.payload.deliveryId);
    // Finished meanwhile (dropped by a disable, deleted with its endpoint, or carried by a newer job): an
    // attempt's result is recorded only on a delivery that still waits for one.
    if (!target || !mayMove('succeed', target.delivery.status) || target.delivery.job_id !== job.id) {
      return { kind: 'canceled', reason: 'the delivery is no longer waiting for this job' };
    }
    const { delivery, endpoint } = target;
    // Disabled endpoints get nothing, except the test-event operation's own delivery.
    if (endpoint.status !== 'enabled' && delivery.test_event !== 1) {
      return {
        kind: 'canceled',
        reason: 'endpoint disabled',
        commit: (trx) => dropDelivery(trx, delivery.id, 'not sent: endpoint disabled'),
      };
    }
    const now = ctx.clock.now();
    // The stored text is the exact body: re-sends carry the same bytes and event id (spec: Event envelope).
    const rawBody = target.envelopeJson;
    const result = await deliverer.attempt({
      url: endpoint.url,
      rawBody,
      signature: signatureHeader(
        signingSecrets(endpoint, box, now),
        Math.floor(now.getTime() / 1000),
        rawBody,
      ),
      eventId: delivery.event_id,
      eventType: delivery.event_type,
      signal: ctx.signal,
    });
    const record = async (trx: Db, retryAt: Date | null) => {
      const { disabled } = await recordAttempt(trx, ctx.clock, delivery, result, retryAt);
      if (disabled) await enqueueDisabledNotice(trx, ctx.clock, endpoint.id);
    };
    if (result.ok) return { kind: 'succeeded', commit: (trx) => record(trx, null) };
    return {
      kind: 'failed',
      error: { code: 'delivery_failed', message: describeFailure(result) },
      retryable: true,
      commit: (trx, next) => record(trx, next.retryAt),
    };
  };
}

function describeFailure(result: AttemptResult): string {
  return result.error ?? `HTTP ${result.status ?? 'error'}`;
}

async function findTarget(
  db: Db,
  deliveryId: string,
): Promise<{ delivery: DeliveryRow; endpoint: EndpointRow; envelopeJson: string } | null> {
  const delivery = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  if (!delivery) return null;
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
  return endpoint && event ? { delivery, endpoint, envelopeJson: event.envelope_json } : null;
}
