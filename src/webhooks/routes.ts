import { type Static, type TSchema, Type } from 'typebox';
import { type AuthContext, authOf, requireSessionRole } from '../accounts/index.js';
import { noStoreOnSend } from '../http/no-store.js';
import { withExamples } from '../http/openapi.js';
import { BEFORE_PAGE_QUERY, BeforePage } from '../http/pages.js';
import { COMMON_ERRORS, ErrorResponse, IdParams, Nullable, Uuid } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { DeliverySchema, EndpointSchema, EventTypeSchema } from './present.js';
import { createWebhookService, type WebhookServiceDeps } from './service.js';

export type WebhookRouteDeps = WebhookServiceDeps;

// No maxLength on url: an over-long URL is reported with details.reason `too_long` (spec: Errors).
const Url = Type.String({ minLength: 1 });
const Events = Type.Array(EventTypeSchema, { minItems: 1, uniqueItems: true });
const Description = Nullable(Type.String({ maxLength: 200 }));

const CreateBody = Type.Object(
  {
    url: Url,
    events: Events,
    description: Type.Optional(Description),
    // Spec: must match the key's mode; defaults to it.
    mode: Type.Optional(Type.Union([Type.Literal('live'), Type.Literal('test')])),
  },
  { additionalProperties: false },
);
const UpdateBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
const RetryParams = Type.Object({ id: Uuid, deliveryId: Uuid }, { additionalProperties: false });
const LogQuery = Type.Object(BEFORE_PAGE_QUERY, { additionalProperties: false });
const Started = Type.Object({ delivery_id: Type.String() });
const ERRORS = { ...COMMON_ERRORS, 402: ErrorResponse, 404: ErrorResponse };
const TAGS = ['Webhooks'];
// Spec (Webhook endpoints): every response is no-store, errors too, and the delivery log carries signed URLs.
const NO_STORE = { onSend: noStoreOnSend };

/** A POST that sends one delivery now (a test event, a retry) and answers 202 with the delivery's id. */
interface DeliveryStart<Params extends TSchema> {
  url: string;
  operationId: string;
  summary: string;
  description: string;
  params: Params;
  /** Sends the delivery for a key, or for an admin or owner session. */
  start(caller: AuthContext, params: Static<Params>): Promise<Static<typeof Started>>;
}

function registerDeliveryStart<Params extends TSchema>(app: App, route: DeliveryStart<Params>): void {
  const { url, params, start, ...doc } = route;
  app.post(
    url,
    { ...NO_STORE, schema: { tags: TAGS, ...doc, params, response: { 202: Started, ...ERRORS } } },
    // Cast: the type provider cannot resolve a generic params schema; validation has already checked them.
    async (request, reply) =>
      reply
        .code(202)
        .send(await start(requireSessionRole(request, 'admin'), request.params as Static<Params>)),
  );
}

type WebhookService = ReturnType<typeof createWebhookService>;

/** Webhook endpoints, test events, delivery log and retries. Register inside the authenticated /v1 scope. */
export function registerWebhookRoutes(app: App, deps: WebhookRouteDeps): void {
  const service = createWebhookService(deps);
  registerEndpointRoutes(app, service);
  registerDeliveryRoutes(app, service);
}

/** The endpoints themselves: list, create, read, change, delete, rotate the secret. */
function registerEndpointRoutes(app: App, service: WebhookService): void {
  app.get(
    '/webhooks',
    {
      ...NO_STORE,
      schema: {
        tags: TAGS,
        operationId: 'listWebhookEndpoints',
        summary: 'List endpoints, newest first',
        description:
          'The team’s webhook endpoints, newest first, with their events, mode and status (a disabled endpoint says why). The secret is shown only by its prefix. Errors: `feature_not_available` (the plan has no webhooks), `invalid_api_key`.',
        response: { 200: Type.Object({ data: Type.Array(EndpointSchema) }), ...ERRORS },
      },
    },
    async (request) => ({ data: await service.list(authOf(request)) }),
  );

  app.post(
    '/webhooks',
    {
      ...NO_STORE,
      schema: {
        tags: TAGS,
        operationId: 'createWebhookEndpoint',
        summary: 'Create an endpoint (the secret is shown only now)',
        description:
          'The endpoint takes the key’s mode. A test key (or a test-mode dashboard session) asking for `mode: live` gets 403 forbidden; a live key asking for `mode: test` gets 400 invalid_request. Any key manages its own mode’s endpoints, whatever its role; a dashboard session needs the admin or owner role. Errors: `invalid_request` (details.field; e.g. a url that is not https or points at a private address; or the team has 10 endpoints already), `forbidden`, `feature_not_available` (the plan has no webhooks).',
        body: withExamples(CreateBody, {
          pdfs: {
            summary: 'Receive PDF events',
            value: {
              url: 'https://example.com/hooks/quire',
              events: ['pdf.created', 'pdf.failed'],
              description: 'Orders system',
            },
          },
        }),
        response: { 201: EndpointSchema, ...ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(requireSessionRole(request, 'admin'), request.body)),
  );

  app.get(
    '/webhooks/:id',
    {
      ...NO_STORE,
      schema: {
        tags: TAGS,
        operationId: 'getWebhookEndpoint',
        summary: 'One endpoint',
        description:
          'One webhook endpoint with its events, mode, status and secret prefix. Errors: `webhook_not_found` (unknown id, or another team’s), `invalid_request`.',
        params: IdParams,
        response: { 200: EndpointSchema, ...ERRORS },
      },
    },
    async (request) => service.get(authOf(request), request.params.id),
  );

  app.put(
    '/webhooks/:id',
    {
      ...NO_STORE,
      schema: {
        tags: TAGS,
        operationId: 'updateWebhookEndpoint',
        summary: 'Change url, events, description or enabled',
        description:
          'Changes an endpoint’s url, events or description, or switches it off and on (`enabled`; switching on again re-enables one that was disabled after repeated failures). Errors: `webhook_not_found`, `invalid_request` (details.field; e.g. a url that is not https or points at a private address).',
        params: IdParams,
        body: withExamples(UpdateBody, {
          disable: { summary: 'Disable the endpoint', value: { enabled: false } },
          events: { summary: 'Change the events', value: { events: ['pdf.created', 'batch.completed'] } },
        }),
        response: { 200: EndpointSchema, ...ERRORS },
      },
    },
    async (request) => service.update(requireSessionRole(request, 'admin'), request.params.id, request.body),
  );

  app.delete(
    '/webhooks/:id',
    {
      ...NO_STORE,
      schema: {
        tags: TAGS,
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete an endpoint and its delivery log',
        description:
          'Deletes an endpoint and its delivery log; events are no longer sent to it, including pending retries. Errors: `webhook_not_found`, `invalid_request`.',
        params: IdParams,
        response: { 204: Type.Null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      await service.remove(requireSessionRole(request, 'admin'), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      ...NO_STORE,
      schema: {
        tags: TAGS,
        operationId: 'rotateWebhookSecret',
        summary: 'New signing secret; the old one signs too for 24 hours',
        description:
          'A new signing secret, shown only in this answer. For 24 hours every delivery is signed with both the old and the new secret, so receivers can switch without missing events. Errors: `webhook_not_found`, `invalid_request`.',
        params: IdParams,
        response: { 200: EndpointSchema, ...ERRORS },
      },
    },
    async (request) => service.rotateSecret(requireSessionRole(request, 'admin'), request.params.id),
  );
}

/** What was sent to an endpoint: a test event, the delivery log and one more attempt of a delivery. */
function registerDeliveryRoutes(app: App, service: WebhookService): void {
  registerDeliveryStart(app, {
    url: '/webhooks/:id/test',
    operationId: 'sendWebhookTestEvent',
    summary: 'Send a test event once (never retried)',
    description:
      'Sends one sample `pdf.created` event with `test_event: true` and made-up data to the endpoint, without retries: check a receiver and its signature check. The delivery appears in the log. Errors: `webhook_not_found`, `invalid_request`.',
    params: IdParams,
    start: (caller, params) => service.sendTest(caller, params.id),
  });

  app.get(
    '/webhooks/:id/deliveries',
    {
      ...NO_STORE,
      schema: {
        tags: TAGS,
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery log, newest first (30 days)',
        description:
          'The endpoint’s deliveries of the last 30 days, newest first, in pages of `limit` (`before`, `next_before`): status, attempts, the receiver’s answer and the event as sent. Errors: `webhook_not_found`, `invalid_request`.',
        params: IdParams,
        querystring: LogQuery,
        response: { 200: BeforePage(DeliverySchema), ...ERRORS },
      },
    },
    async (request) => service.deliveries(authOf(request), request.params.id, request.query),
  );

  registerDeliveryStart(app, {
    url: '/webhooks/:id/deliveries/:deliveryId/retry',
    operationId: 'retryWebhookDelivery',
    summary: 'One more attempt of a finished delivery',
    description:
      'Sends a finished (delivered or failed) delivery’s event once more, now, with the same event id, so receivers that drop duplicates stay correct. Errors: `webhook_not_found` (unknown endpoint), `not_found` (unknown delivery, or one still being attempted), `invalid_request`.',
    params: RetryParams,
    start: (caller, params) => service.retryDelivery(caller, params.id, params.deliveryId),
  });
}
