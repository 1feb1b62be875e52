import { Type } from 'typebox';
import { authOf } from '../accounts/auth-context.js';
import { COMMON_ERRORS, ErrorResponse, IdParams, LimitQuery, Nullable, Uuid } from '../http/schemas.js';
import type { App } from '../http/server.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import type { RateCounter } from '../shared/rate-counter.js';
import type { Db } from '../storage/db.js';
import { decodeLogCursor, encodeLogCursor, findDelivery, listDeliveries } from './delivery-log.js';
import { queueManualRetry, queueTestEvent } from './outbox.js';
import { DeliverySchema, presentDelivery } from './present.js';
import { endpointOf, requireWebhooksPlan, spendWebhookSend } from './route-guards.js';
import type { SecretBox } from './secret-box.js';
import type { Resolver } from './url-policy.js';

export interface WebhookRouteDeps {
  db: Db;
  clock: Clock;
  rate: RateCounter;
  box: SecretBox;
  /** config.allowPrivateWebhooks */
  allowPrivate: boolean;
  /** DNS for URL checks (tests inject one). */
  resolve?: Resolver;
  /** Wakes this process's delivery loop after a test event or retry was queued. */
  wakeDeliveries?: () => void;
}

const ERRORS = { ...COMMON_ERRORS, 402: ErrorResponse, 404: ErrorResponse };
const TAGS = ['Webhooks'];
const RetryParams = Type.Object({ id: Uuid, deliveryId: Uuid }, { additionalProperties: false });
const LogQuery = Type.Object(
  { limit: LimitQuery(20), before: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);

/** Test event, delivery log and manual retry (spec: Webhook endpoints; Webhook delivery status). */
export function registerDeliveryRoutes(app: App, deps: WebhookRouteDeps): void {
  const { db, clock } = deps;

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        tags: TAGS,
        summary: 'Send a test event once (never retried)',
        params: IdParams,
        response: { 202: DeliverySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      requireWebhooksPlan(auth);
      const endpoint = await endpointOf(db, auth, request.params.id);
      spendWebhookSend(deps.rate, clock, endpoint.id);
      const deliveryId = await queueTestEvent(db, clock, endpoint);
      deps.wakeDeliveries?.();
      return reply.code(202).send(presentDelivery(await mustFind(db, endpoint.id, deliveryId)));
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags: TAGS,
        summary: 'Delivery log, newest first (30 days)',
        params: IdParams,
        querystring: LogQuery,
        response: {
          200: Type.Object({ data: Type.Array(DeliverySchema), next_before: Nullable(Type.String()) }),
          ...ERRORS,
        },
      },
    },
    async (request) => {
      const endpoint = await endpointOf(db, authOf(request), request.params.id);
      const { limit, before } = request.query;
      const cursor = before === undefined ? null : decodeLogCursor(before);
      if (before !== undefined && !cursor)
        throw new AppError('invalid_request', 'Query "before" is not a cursor this API returned.');
      const rows = await listDeliveries(db, endpoint.id, { limit: limit + 1, before: cursor });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        data: page.map(presentDelivery),
        next_before: rows.length > limit && last ? encodeLogCursor(last) : null,
      };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    {
      schema: {
        tags: TAGS,
        summary: 'One more attempt of a finished delivery',
        params: RetryParams,
        response: { 202: DeliverySchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      requireWebhooksPlan(auth);
      const endpoint = await endpointOf(db, auth, request.params.id);
      const delivery = await findDelivery(db, endpoint.id, request.params.deliveryId);
      if (!delivery || delivery.status === 'pending') {
        throw new AppError(
          'not_found',
          `No finished delivery ${request.params.deliveryId} for this endpoint.`,
        );
      }
      if (endpoint.status === 'disabled') {
        throw new AppError(
          'invalid_request',
          'The endpoint is disabled; enable it before retrying deliveries.',
        );
      }
      spendWebhookSend(deps.rate, clock, endpoint.id);
      if (!(await queueManualRetry(db, clock, delivery.id))) {
        throw new AppError('not_found', `Delivery ${delivery.id} is pending.`);
      }
      deps.wakeDeliveries?.();
      return reply.code(202).send(presentDelivery(await mustFind(db, endpoint.id, delivery.id)));
    },
  );
}

async function mustFind(db: Db, endpointId: string, id: string) {
  const row = await findDelivery(db, endpointId, id);
  if (!row) throw new Error(`delivery ${id} vanished`);
  return row;
}
