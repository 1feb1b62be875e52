import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { RateCounter } from '../shared/rate-counter.js';
import type { Db } from '../storage/index.js';
import { decodeLogCursor, encodeLogCursor, findDelivery, listDeliveries } from './delivery-log.js';
import { disableEndpoint } from './delivery-store.js';
import {
  deleteEndpoint,
  type EndpointRow,
  findEndpointById,
  insertEndpointWithinLimit,
  listEndpoints,
  rotateSecret,
  updateEndpointRow,
} from './endpoints.js';
import type { EventType } from './events.js';
import { queueManualRetry, queueTestEvent } from './outbox.js';
import { type DeliveryJson, type EndpointJson, presentDelivery, presentEndpoint } from './present.js';
import {
  acceptedUrl,
  endpointOf,
  requireWebhooksPlan,
  spendWebhookSend,
  type WebhookCaller,
} from './route-guards.js';
import type { SecretBox } from './secret-box.js';
import type { Resolver } from './url-policy.js';

/**
 * The webhook operations behind the routes (spec: Webhook endpoints; Webhook delivery status): plan checks,
 * URL checks, limits, storage and queueing. Routes validate the shape and call these; nothing else.
 */
export interface WebhookServiceDeps {
  db: Db;
  clock: Clock;
  rate: RateCounter;
  box: SecretBox;
  /** config.allowPrivateWebhooks */
  allowPrivate: boolean;
  /** DNS for URL checks (tests inject one). */
  resolve?: Resolver;
  /** Wakes this process's job workers after a test event or retry was queued. */
  wakeDeliveries?: () => void;
}

export interface CreateEndpointInput {
  url: string;
  events: EventType[];
  description?: string | null;
  mode?: 'live' | 'test';
}

export interface UpdateEndpointInput {
  url?: string;
  events?: EventType[];
  description?: string | null;
  enabled?: boolean;
}

export interface DeliveryPage {
  data: DeliveryJson[];
  next_before: string | null;
}

export function createWebhookService(deps: WebhookServiceDeps) {
  const { db, clock, box } = deps;
  const urlOptions = { allowPrivate: deps.allowPrivate, ...(deps.resolve ? { resolve: deps.resolve } : {}) };

  return {
    async list(caller: WebhookCaller): Promise<EndpointJson[]> {
      return (await listEndpoints(db, caller.team.id, caller.mode)).map((row) => presentEndpoint(row));
    },

    async create(caller: WebhookCaller, input: CreateEndpointInput): Promise<EndpointJson> {
      requireWebhooksPlan(caller);
      if (input.mode === 'live' && caller.mode === 'test') {
        // A test key (or test-mode session) never reaches live endpoints; a refusal, not a typo.
        throw new AppError(
          'forbidden',
          'A test key cannot create live webhook endpoints. Use a live key, or leave "mode" out for a test endpoint.',
        );
      }
      if (input.mode !== undefined && input.mode !== caller.mode) {
        throw new AppError('invalid_request', `"mode" must match the key's mode (${caller.mode}).`, {
          field: 'mode',
        });
      }
      const url = await acceptedUrl(input.url, urlOptions);
      const created = await insertEndpointWithinLimit(db, clock, box, {
        teamId: caller.team.id,
        mode: caller.mode,
        url,
        events: input.events,
        description: input.description ?? null,
      });
      return presentEndpoint(created.row, created.secret);
    },

    async get(caller: WebhookCaller, id: string): Promise<EndpointJson> {
      return presentEndpoint(await endpointOf(db, caller, id));
    },

    async update(caller: WebhookCaller, id: string, input: UpdateEndpointInput): Promise<EndpointJson> {
      const row = await endpointOf(db, caller, id);
      // Enabling or changing url/events needs webhooks on the plan; disabling never does.
      if (input.enabled === true || input.url !== undefined || input.events !== undefined)
        requireWebhooksPlan(caller);
      const url = input.url === undefined ? undefined : await acceptedUrl(input.url, urlOptions);
      return presentEndpoint(await applyUpdate(db, clock, row, { ...input, url }));
    },

    async remove(caller: WebhookCaller, id: string): Promise<void> {
      await deleteEndpoint(db, (await endpointOf(db, caller, id)).id);
    },

    async rotateSecret(caller: WebhookCaller, id: string): Promise<EndpointJson> {
      const rotated = await rotateSecret(db, clock, box, await endpointOf(db, caller, id));
      return presentEndpoint(rotated.row, rotated.secret);
    },

    /** One sample pdf.created with test_event, one attempt (spec: POST /webhooks/<id>/test → 202). */
    async sendTest(caller: WebhookCaller, id: string): Promise<{ delivery_id: string }> {
      requireWebhooksPlan(caller);
      const endpoint = await endpointOf(db, caller, id);
      await spendWebhookSend(deps.rate, clock, endpoint.id);
      const deliveryId = await queueTestEvent(db, clock, endpoint);
      deps.wakeDeliveries?.();
      return { delivery_id: deliveryId };
    },

    async deliveries(
      caller: WebhookCaller,
      id: string,
      query: { limit: number; before?: string | undefined },
    ): Promise<DeliveryPage> {
      const endpoint = await endpointOf(db, caller, id);
      const cursor = query.before === undefined ? null : decodeLogCursor(query.before);
      if (query.before !== undefined && !cursor)
        throw new AppError('invalid_request', 'Query "before" is not a cursor this API returned.');
      const rows = await listDeliveries(db, endpoint.id, { limit: query.limit + 1, before: cursor });
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      return {
        data: page.map(presentDelivery),
        next_before: rows.length > query.limit && last ? encodeLogCursor(last) : null,
      };
    },

    /** One more attempt of a finished delivery (spec: POST …/deliveries/<id>/retry → 202). */
    async retryDelivery(
      caller: WebhookCaller,
      id: string,
      deliveryId: string,
    ): Promise<{ delivery_id: string }> {
      requireWebhooksPlan(caller);
      const endpoint = await endpointOf(db, caller, id);
      const delivery = await findDelivery(db, endpoint.id, deliveryId);
      if (!delivery || delivery.status === 'pending') {
        throw new AppError('not_found', `No finished delivery ${deliveryId} for this endpoint.`);
      }
      if (endpoint.status === 'disabled') {
        throw new AppError(
          'invalid_request',
          'The endpoint is disabled; enable it before retrying deliveries.',
        );
      }
      await spendWebhookSend(deps.rate, clock, endpoint.id);
      if (!(await queueManualRetry(db, clock, delivery.id))) {
        throw new AppError('not_found', `Delivery ${delivery.id} is pending.`);
      }
      deps.wakeDeliveries?.();
      return { delivery_id: delivery.id };
    },
  };
}

async function applyUpdate(
  db: Db,
  clock: Clock,
  row: EndpointRow,
  input: UpdateEndpointInput,
): Promise<EndpointRow> {
  const now = clock.now();
  const changes: Partial<EndpointRow> = { updated_at: now.toISOString() };
  if (input.url !== undefined) changes.url = input.url;
  if (input.events !== undefined) changes.events_json = JSON.stringify(input.events);
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled === true && row.status === 'disabled') {
    Object.assign(changes, { status: 'enabled', disabled_reason: null, failing_since: null });
  }
  await db.transaction().execute(async (trx) => {
    await updateEndpointRow(trx, row.id, changes);
    if (input.enabled === false && row.status === 'enabled')
      await disableEndpoint(trx, clock, row.id, 'manual');
  });
  const fresh = await findEndpointById(db, row.id);
  if (!fresh) throw new AppError('webhook_not_found', `No webhook endpoint ${row.id}.`);
  return fresh;
}
