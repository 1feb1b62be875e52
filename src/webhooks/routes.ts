import { Type } from 'typebox';
import { authOf } from '../accounts/auth-context.js';
import { COMMON_ERRORS, ErrorResponse, IdParams, Nullable } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { AppError } from '../shared/errors.js';
import { registerDeliveryRoutes, type WebhookRouteDeps } from './delivery-routes.js';
import { disableEndpoint } from './delivery-store.js';
import {
  countEndpoints,
  deleteEndpoint,
  type EndpointRow,
  insertEndpoint,
  listEndpoints,
  MAX_ENDPOINTS_PER_TEAM,
  rotateSecret,
  updateEndpointRow,
} from './endpoints.js';
import { EndpointSchema, EventTypeSchema, presentEndpoint } from './present.js';
import { acceptedUrl, endpointOf, requireWebhooksPlan } from './route-guards.js';

export type { WebhookRouteDeps } from './delivery-routes.js';

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
const ERRORS = { ...COMMON_ERRORS, 402: ErrorResponse, 404: ErrorResponse };
const TAGS = ['Webhooks'];

/** Webhook endpoint management (spec: Webhook endpoints). Register inside the authenticated /v1 scope. */
export function registerWebhookRoutes(app: App, deps: WebhookRouteDeps): void {
  const { db, clock, box } = deps;
  const urlOptions = { allowPrivate: deps.allowPrivate, resolve: deps.resolve };

  app.get(
    '/webhooks',
    {
      schema: {
        tags: TAGS,
        summary: 'List endpoints, newest first',
        response: { 200: Type.Object({ data: Type.Array(EndpointSchema) }), ...ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      reply.header('cache-control', 'no-store');
      return { data: (await listEndpoints(db, auth.team.id, auth.mode)).map((row) => presentEndpoint(row)) };
    },
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags: TAGS,
        summary: 'Create an endpoint (the secret is shown only now)',
        body: CreateBody,
        response: { 201: EndpointSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      requireWebhooksPlan(auth);
      if (request.body.mode !== undefined && request.body.mode !== auth.mode) {
        throw new AppError('invalid_request', `"mode" must match the key's mode (${auth.mode}).`, {
          field: 'mode',
        });
      }
      const url = await acceptedUrl(request.body.url, urlOptions);
      const created = await db.transaction().execute(async (trx) => {
        // Insert first, then count inside the same transaction: concurrent creates cannot pass 10.
        const made = await insertEndpoint(trx, clock, box, {
          teamId: auth.team.id,
          mode: auth.mode,
          url,
          events: request.body.events,
          description: request.body.description ?? null,
        });
        if ((await countEndpoints(trx, auth.team.id)) > MAX_ENDPOINTS_PER_TEAM) {
          throw new AppError(
            'invalid_request',
            `A workspace can have at most ${MAX_ENDPOINTS_PER_TEAM} webhook endpoints.`,
          );
        }
        return made;
      });
      reply.code(201).header('cache-control', 'no-store');
      return presentEndpoint(created.row, created.secret);
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'One endpoint',
        params: IdParams,
        response: { 200: EndpointSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const row = await endpointOf(db, authOf(request), request.params.id);
      reply.header('cache-control', 'no-store');
      return presentEndpoint(row);
    },
  );

  app.put(
    '/webhooks/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Change url, events, description or enabled',
        params: IdParams,
        body: UpdateBody,
        response: { 200: EndpointSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const row = await endpointOf(db, auth, request.params.id);
      const body = request.body;
      // Enabling or changing url/events needs webhooks on the plan; disabling never does.
      if (body.enabled === true || body.url !== undefined || body.events !== undefined)
        requireWebhooksPlan(auth);
      const url = body.url === undefined ? undefined : await acceptedUrl(body.url, urlOptions);
      const updated = await applyUpdate(deps, row, { ...body, url });
      reply.header('cache-control', 'no-store');
      return presentEndpoint(updated);
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete an endpoint and its delivery log',
        params: IdParams,
        response: { 204: Type.Null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      const row = await endpointOf(db, authOf(request), request.params.id);
      await deleteEndpoint(db, row.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      schema: {
        tags: TAGS,
        summary: 'New signing secret; the old one signs too for 24 hours',
        params: IdParams,
        response: { 200: EndpointSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const row = await endpointOf(db, authOf(request), request.params.id);
      const rotated = await rotateSecret(db, clock, box, row);
      reply.header('cache-control', 'no-store');
      return presentEndpoint(rotated.row, rotated.secret);
    },
  );

  registerDeliveryRoutes(app, deps);
}

async function applyUpdate(
  deps: WebhookRouteDeps,
  row: EndpointRow,
  body: { url?: string; events?: string[]; description?: string | null; enabled?: boolean },
): Promise<EndpointRow> {
  const now = deps.clock.now();
  const changes: Partial<EndpointRow> = { updated_at: now.toISOString() };
  if (body.url !== undefined) changes.url = body.url;
  if (body.events !== undefined) changes.events_json = JSON.stringify(body.events);
  if (body.description !== undefined) changes.description = body.description;
  if (body.enabled === true && row.status === 'disabled') {
    Object.assign(changes, { status: 'enabled', disabled_reason: null, failing_since: null });
  }
  await deps.db.transaction().execute(async (trx) => {
    await updateEndpointRow(trx, row.id, changes);
    if (body.enabled === false && row.status === 'enabled') await disableEndpoint(trx, row.id, 'manual', now);
  });
  const fresh = await deps.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  return fresh;
}
