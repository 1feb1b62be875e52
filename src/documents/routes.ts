import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authOf } from '../accounts/index.js';
import { errorResponses, fileResponse, HEADER } from '../http/openapi.js';
import { BEFORE_PAGE_QUERY, BeforePage } from '../http/pages.js';
import { registerResourceRoute } from '../http/resource-route.js';
import { COMMON_ERRORS, Uuid } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { THUMBNAIL_PNG_RESPONSE, ThumbnailFileParams, thumbnailIdOf } from '../http/thumbnail-link.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { nextBefore, parseBefore } from '../shared/page-cursor.js';
import type { BlobStore, Db } from '../storage/index.js';
import { ActivitySchema, listActivity, presentActivity } from './activity.js';
import { ListedDocumentSchema, withListExtras } from './list-extras.js';
import { DocumentSchema, isStored, presentDocument } from './present.js';
import { type DocumentRow, findDocument, findDocumentById, listDocuments } from './repository.js';
import type { LinkSigner } from './signed-links.js';
import { documentStatusSchema } from './states.js';
import type { ThumbnailCache } from './thumbnails.js';

export interface DocumentRouteDeps {
  services: { db: Db; blobs: BlobStore; clock: Clock; publicUrl(): string };
  signer: LinkSigner;
  thumbnails: ThumbnailCache;
}

function linkContext(deps: DocumentRouteDeps) {
  return {
    signer: deps.signer,
    publicUrl: deps.services.publicUrl(),
    nowMs: deps.services.clock.now().getTime(),
  };
}

/** The document the request names, as its key may see it: a test key sees only test documents. */
async function visibleDocument(db: Db, request: FastifyRequest, id: string): Promise<DocumentRow> {
  const auth = authOf(request);
  const row = await findDocument(db, auth.team.id, id, auth.mode === 'test');
  if (!row) throw new AppError('document_not_found', `No document ${id} in this workspace.`);
  return row;
}

/** GET /pdf/<id> and GET /documents (spec: document log). */
export function registerDocumentRoutes(app: App, deps: DocumentRouteDeps): void {
  const { db } = deps.services;
  const find = (request: FastifyRequest, id: string) => visibleDocument(db, request, id);
  registerResourceRoute(app, {
    method: 'GET',
    url: '/pdf/:id',
    doc: {
      tags: ['Documents'],
      operationId: 'getDocument',
      summary: 'One document record',
      description:
        'One document record: status, pages, size, mode, the template and version it came from and, while stored, a signed `url` and `thumbnail_url`. Poll it after an async POST /pdf (or use webhooks); read it again for a fresh link. Errors: `document_not_found` (unknown id, another team’s, or a live document read with a test key), `invalid_request`.',
    },
    answer: DocumentSchema,
    find,
    respond: (row) => presentDocument(row, linkContext(deps)),
  });

  registerResourceRoute(app, {
    method: 'GET',
    url: '/pdf/:id/activity',
    doc: {
      tags: ['Documents'],
      operationId: 'getDocumentActivity',
      summary: 'Activity log of one document (extension): status transitions, timing, pages, warnings',
      description:
        'Entries are kept 30 days (spec: Retention facts); the document record may outlive them, and then the list is empty. Same visibility as GET /pdf/{id}: a test key sees only test documents. Errors: `document_not_found`, `invalid_request`.',
    },
    answer: ActivitySchema,
    find,
    respond: async (row) => ({ document_id: row.id, data: presentActivity(await listActivity(db, row.id)) }),
  });

  app.get(
    '/documents',
    {
      schema: {
        tags: ['Documents'],
        operationId: 'listDocuments',
        summary: 'Document log, newest first',
        description:
          'Extension: `status`, `template_id`, `from` and `to` (UTC days, inclusive) narrow the log, and `q` searches it (a document id, or text in the file name or the metadata); send the same filters with `before` to page on. Errors: `invalid_request` (limit 1 to 100, a date that is not YYYY-MM-DD, a search with a NUL character, or a cursor sent with other filters).',
        querystring: Type.Object(
          {
            ...BEFORE_PAGE_QUERY,
            status: Type.Optional(documentStatusSchema({ description: 'Only documents in this status' })),
            template_id: Type.Optional(Uuid),
            from: Type.Optional(Type.String({ format: 'date', description: 'First UTC day (YYYY-MM-DD)' })),
            to: Type.Optional(Type.String({ format: 'date', description: 'Last UTC day (YYYY-MM-DD)' })),
            q: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 200,
                // PostgreSQL text cannot hold NUL: refused here rather than failing in the query.
                pattern: '^[^\\u0000]*$',
                description:
                  'Extension: a document id (whole), or text found in the file name or in a metadata key or value (case-insensitive)',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: BeforePage(ListedDocumentSchema), ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { limit, before, status, template_id, from, to, q } = request.query;
      const rows = await listDocuments(db, auth.team.id, {
        testOnly: auth.mode === 'test',
        limit: limit + 1,
        before: parseBefore(before),
        filter: {
          ...(status ? { status } : {}),
          ...(template_id ? { templateId: template_id } : {}),
          ...(from ? { fromDay: from } : {}),
          ...(to ? { toDay: to } : {}),
          ...(q ? { search: q } : {}),
        },
      });
      reply.header('cache-control', 'no-store');
      const shown = rows.slice(0, limit);
      const links = linkContext(deps);
      return {
        data: await withListExtras(
          db,
          shown,
          shown.map((row) => presentDocument(row, links)),
        ),
        next_before: nextBefore(rows, limit),
      };
    },
  );
}

const SignedQuery = Type.Object(
  {
    exp: Type.Optional(Type.String()),
    sig: Type.Optional(Type.String()),
    download: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** Signed-link downloads: no key, secured by exp + sig (spec: GET /files/<id>, Thumbnails). */
export function registerSignedDocumentRoutes(app: App, deps: DocumentRouteDeps): void {
  const { db, blobs, clock } = deps.services;
  app.get(
    '/files/:id',
    {
      schema: {
        tags: ['Documents'],
        operationId: 'downloadFile',
        summary: 'Download a stored PDF (signed link)',
        description:
          'The stored PDF behind a document’s signed `url` (from POST /pdf with `response: url`, GET /pdf/{id} or a webhook). The link carries its signature and expiry, so it needs no key: hand it to a browser or a customer; `download=1` makes it an attachment. Errors: `forbidden` (the signature does not match: use the link unchanged), `file_expired` (the link or the file expired: read the document again for a fresh link, or render again), `invalid_request`.',
        security: [],
        params: Type.Object({ id: Uuid }),
        querystring: SignedQuery,
        response: {
          200: fileResponse(
            'The stored PDF (the XML of an XRechnung e-invoice)',
            ['application/pdf', 'application/xml'],
            {
              headers: { 'content-disposition': HEADER.contentDisposition },
            },
          ),
          ...errorResponses(400, 403, 410, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      deps.signer.check(`file:${id}`, request.query, clock.now());
      const row = await findDocumentById(db, id);
      const file =
        row && isStored(row, clock.now().getTime()) && row.blob_key ? await blobs.read(row.blob_key) : null;
      if (!row || !file) throw new AppError('file_expired', 'This file is no longer stored.');
      const disposition = request.query.download === '1' ? 'attachment' : 'inline';
      return reply
        .header('content-type', row.content_type)
        .header('content-length', String(file.size))
        .header('content-disposition', `${disposition}; filename="${row.filename}"`)
        .header('cache-control', 'private, max-age=300')
        .header('content-security-policy', 'sandbox')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    },
  );

  app.get(
    '/thumbnails/documents/:file',
    {
      schema: {
        tags: ['Documents'],
        operationId: 'getDocumentThumbnail',
        summary: 'First-page PNG of a document (signed link)',
        description:
          'The first page of a stored document as a 480 px wide PNG, through the document’s signed `thumbnail_url`; for lists and previews. Needs no key. Errors: `forbidden` (the signature does not match), `file_expired` (the link expired or the document is no longer stored), `invalid_request`.',
        security: [],
        params: ThumbnailFileParams,
        querystring: SignedQuery,
        response: {
          200: THUMBNAIL_PNG_RESPONSE,
          ...errorResponses(400, 403, 410, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const id = thumbnailIdOf(request.params.file);
      deps.signer.check(`thumb:${id}`, request.query, clock.now());
      const png = await deps.thumbnails.forDocument(id);
      if (!png) throw new AppError('file_expired', 'This file is no longer stored.');
      return reply
        .header('content-type', 'image/png')
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(png);
    },
  );
}
