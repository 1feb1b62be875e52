import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type AuthContext, authOf } from '../accounts/index.js';
import type { LinkSigner } from '../documents/index.js';
import { plainDeliver } from '../email/index.js';
import {
  EXAMPLE_ID,
  errorResponses,
  fileResponse,
  HEADER,
  jsonResponse,
  withExamples,
} from '../http/openapi.js';
import { BEFORE_PAGE_QUERY, BeforePage } from '../http/pages.js';
import { registerResourceRoute } from '../http/resource-route.js';
import { COMMON_ERRORS, ErrorResponse, IdParams, LimitQuery, Nullable, Uuid } from '../http/schemas.js';
import type { App } from '../http/server.js';
import {
  type IdempotencyStore,
  parseIdempotencyKey,
  type Remember,
  withIdempotency,
} from '../idempotency/index.js';
import { checkCaptureRules } from '../production/index.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { nextBefore, parseBefore } from '../shared/page-cursor.js';
import type { Db } from '../storage/index.js';
import { type BatchJson, zipResource } from './present.js';
import type { BatchRow } from './repository.js';
import { BatchItemSchema, type BatchRequest, BatchRequestBody, BatchSchema } from './schema.js';
import { type BatchService, maxItems } from './service.js';
import type { SpreadsheetReader } from './spreadsheet.js';
import { spreadsheetItems } from './spreadsheet-items.js';

export interface BatchRouteDeps {
  service: BatchService;
  idempotency: IdempotencyStore;
  /** Look for due background jobs now (after an enqueue or a cancel). */
  wakeJobs(): void;
  /** Where a `spreadsheet` is read (off the main thread, on a budget). */
  untrusted: SpreadsheetReader;
}

const ROUTE = 'POST /batches';

/** The Batches endpoints with a key (spec: Batches). HTTP concerns only; the work is the BatchService's. */
export function registerBatchRoutes(app: App, deps: BatchRouteDeps): void {
  app.post(
    '/batches',
    {
      schema: {
        tags: ['Batches'],
        operationId: 'createBatch',
        summary: 'Queue one PDF per item or spreadsheet row',
        description:
          'Queues one PDF per item (`items`) or per spreadsheet row (`spreadsheet`, with a column mapping) from one template, rendered in the background into one ZIP. Follow it with GET /batches/{id}, its items, or the `batch.completed` webhook. Send an `Idempotency-Key` so that a retry never queues twice. Errors: `invalid_request` (details.field names the item or column), `template_not_found`, `plan_limit_reached`, `spending_cap_reached`, `payload_too_large`, `idempotency_conflict`, `service_busy`.',
        body: withExamples(BatchRequestBody, {
          items: {
            summary: 'One PDF per item (put the id of one of your templates)',
            value: {
              template_id: EXAMPLE_ID,
              items: [{ data: { number: '1001' }, filename: 'invoice-1001' }, { data: { number: '1002' } }],
            },
          },
        }),
        response: {
          202: jsonResponse('Queued; follow its progress with GET /batches/{id}', BatchSchema, {
            location: Type.String({ description: 'Path of the batch: /v1/batches/{id}.' }),
          }),
          402: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          422: ErrorResponse,
          503: ErrorResponse,
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const body = request.body;
      return withIdempotency(deps.idempotency, {
        key: parseIdempotencyKey(request.headers['idempotency-key']),
        scope: { teamId: auth.team.id, mode: auth.mode, route: ROUTE },
        body,
        run: (remember) => create(deps, reply, auth, body, remember),
        replay: async (first) => {
          // The key remembers the batch id in its document slot: the replay shows the batch as it is now.
          const batch = await deps.service.find(auth.team.id, first.documentId, auth.mode === 'test');
          if (!batch) throw new AppError('file_expired', 'The batch this Idempotency-Key made is gone.');
          return sendQueued(reply, batch);
        },
      });
    },
  );

  app.get(
    '/batches',
    {
      schema: {
        tags: ['Batches'],
        operationId: 'listBatches',
        summary: 'Batches, newest first',
        description:
          'The team’s batches, newest first, in pages of `limit` (`before`, `next_before`), with status and counts. Errors: `invalid_request` (limit 1 to 100, or a cursor not from this list).',
        querystring: Type.Object(BEFORE_PAGE_QUERY, { additionalProperties: false }),
        response: { 200: BeforePage(BatchSchema), ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { limit, before } = request.query;
      const { rows, data } = await deps.service.list(auth.team.id, {
        testOnly: auth.mode === 'test',
        limit: limit + 1,
        before: parseBefore(before),
      });
      reply.header('cache-control', 'no-store');
      return { data: data.slice(0, limit), next_before: nextBefore(rows, limit) };
    },
  );

  const find = (request: FastifyRequest, id: string) => visibleBatch(deps, request, id);
  registerResourceRoute(app, {
    method: 'GET',
    url: '/batches/:id',
    doc: {
      tags: ['Batches'],
      operationId: 'getBatch',
      summary: 'One batch',
      description:
        'One batch: status, counts per item status and, once finished, the signed `zip.url`. Poll it (or wait for `batch.completed`) after POST /batches. Errors: `not_found` (unknown id, another team’s, or live with a test key), `invalid_request`.',
    },
    answer: BatchSchema,
    find,
    respond: (row) => deps.service.present(row),
  });

  app.get(
    '/batches/:id/items',
    {
      schema: {
        tags: ['Batches'],
        operationId: 'listBatchItems',
        summary: 'Batch items in item order',
        description:
          'The items of a batch in item order, in pages of `limit` (`after`, `next_after`), each with its status, error and document link: find out which rows failed and why. Errors: `not_found` (unknown batch), `invalid_request`.',
        params: IdParams,
        querystring: Type.Object(
          { limit: LimitQuery(20), after: Type.Optional(Type.String({ maxLength: 20 })) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ data: Type.Array(BatchItemSchema), next_after: Nullable(Type.String()) }),
          404: ErrorResponse,
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const row = await visibleBatch(deps, request, request.params.id);
      const { limit, after } = request.query;
      const afterIndex = after === undefined ? -1 : parseAfter(after);
      const { rows, items } = await deps.service.items(row.id, { after: afterIndex, limit: limit + 1 });
      const page = items.slice(0, limit);
      const last = rows[Math.min(limit, rows.length) - 1];
      reply.header('cache-control', 'no-store');
      return { data: page, next_after: rows.length > limit && last ? String(last.item_index) : null };
    },
  );

  registerResourceRoute(app, {
    method: 'POST',
    url: '/batches/:id/cancel',
    doc: {
      tags: ['Batches'],
      operationId: 'cancelBatch',
      summary: 'Cancel the queued items',
      description:
        'Cancels the items not started yet; items already rendering or done stay, and the ZIP holds what succeeded. `batch.completed` is sent once the batch stops. Errors: `not_found` (unknown batch), `invalid_request`.',
    },
    answer: BatchSchema,
    find,
    respond: async (row) => {
      const batch = await deps.service.cancel(row);
      deps.wakeJobs();
      return batch;
    },
  });
}

async function create(
  deps: BatchRouteDeps,
  reply: FastifyReply,
  auth: AuthContext,
  body: BatchRequest,
  remember: Remember,
) {
  checkCaptureRules(body);
  const { items: givenItems, spreadsheet, ...givenOptions } = body;
  const options =
    givenOptions.deliver === undefined
      ? givenOptions
      : { ...givenOptions, deliver: plainDeliver(givenOptions.deliver, 'deliver') };
  const items = givenItems?.map((item, i) =>
    item.deliver === undefined
      ? item
      : { ...item, deliver: plainDeliver(item.deliver, `items[${i}].deliver`) },
  );
  if ((items === undefined) === (spreadsheet === undefined)) {
    throw new AppError('invalid_request', 'Send exactly one of "items" or "spreadsheet".');
  }
  // A test key always makes a test batch (as POST /pdf `test`).
  const test = auth.mode === 'test' || body.test === true;
  const rows =
    items ??
    (await spreadsheetItems(
      spreadsheet as NonNullable<BatchRequest['spreadsheet']>,
      maxItems(auth.plan),
      options.deliver,
      (bytes, max) => deps.untrusted.spreadsheet(auth.team.id, bytes, max, 'spreadsheet.content_base64'),
    ));
  const batch = await deps.service.create(
    { teamId: auth.team.id, plan: auth.plan },
    { options, items: rows, test },
    remember
      ? (trx: Db, batchId: string) => remember(trx, { documentId: batchId, answer: 'async' })
      : undefined,
  );
  deps.wakeJobs();
  return sendQueued(reply, batch);
}

/** 202 with the Batch; no-store because a batch can carry its signed ZIP link (spec: Conventions 8). */
function sendQueued(reply: FastifyReply, batch: BatchJson) {
  return reply
    .code(202)
    .header('location', `/v1/batches/${batch.id}`)
    .header('cache-control', 'no-store')
    .send(batch);
}

function parseAfter(value: string): number {
  if (!/^\d{1,9}$/.test(value))
    throw new AppError(
      'invalid_request',
      'Query "after" is not a cursor this API returned; pass next_after as is.',
    );
  return Number(value);
}

/**
 * The batch the request names, as its key may see it: a test key sees only test batches. Spec: the error
 * table has no batch code; an unknown batch (or another team's, or live with a test key) is `not_found`.
 */
async function visibleBatch(deps: BatchRouteDeps, request: FastifyRequest, id: string): Promise<BatchRow> {
  const auth = authOf(request);
  const row = await deps.service.findRow(auth.team.id, id, auth.mode === 'test');
  if (row) return row;
  const seen = auth.session ? 'test mode shows test batches only' : 'test keys see test batches only';
  throw new AppError('not_found', `No batch ${id} in this workspace (${seen}).`);
}

const SignedQuery = Type.Object(
  { exp: Type.Optional(Type.String()), sig: Type.Optional(Type.String()) },
  { additionalProperties: true },
);

/** GET /batches/<id>/zip: signed link, no key (spec: Authentication 6). */
export function registerSignedBatchRoutes(
  app: App,
  deps: { service: BatchService; signer: LinkSigner; clock: Clock },
): void {
  app.get(
    '/batches/:id/zip',
    {
      schema: {
        tags: ['Batches'],
        operationId: 'downloadBatchZip',
        summary: 'Download the batch ZIP (signed link)',
        description:
          'The ZIP of a finished batch (one file per succeeded item), through the batch’s signed `zip.url`. Needs no key. Errors: `forbidden` (the signature does not match), `file_expired` (the link or the ZIP expired), `invalid_request`.',
        security: [],
        params: Type.Object({ id: Uuid }),
        querystring: SignedQuery,
        response: {
          200: fileResponse('The ZIP of the batch PDFs', ['application/zip'], {
            headers: { 'content-disposition': HEADER.contentDisposition },
          }),
          ...errorResponses(400, 403, 410, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      deps.signer.check(zipResource(id), request.query, deps.clock.now());
      const file = await deps.service.zipFile(id);
      if (!file) throw new AppError('file_expired', 'This ZIP is no longer stored.');
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="batch-${id}.zip"`)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );
}
