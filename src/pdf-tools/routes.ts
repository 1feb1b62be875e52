import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { type AuthContext, authOf } from '../accounts/index.js';
import { type DocumentJson, type DocumentRow, DocumentSchema } from '../documents/index.js';
import type { SigningKey, StoredPdfPort } from '../finishing/index.js';
import { errorResponses, fileResponse, HEADER, IdempotencyHeader, withExamples } from '../http/openapi.js';
import { COMMON_ERRORS } from '../http/schemas.js';
import type { App } from '../http/server.js';
import {
  type Answer,
  type IdempotencyStore,
  parseIdempotencyKey,
  type Remember,
  type Replay,
  withIdempotency,
} from '../idempotency/index.js';
import type { Production } from '../production/index.js';
import type { Clock } from '../shared/clock.js';
import { AppError } from '../shared/errors.js';
import { sanitizeFilename } from '../shared/filenames.js';
import type { Db } from '../storage/index.js';
import { INSPECT_EXAMPLES, SPLIT_EXAMPLES, TRANSFORM_EXAMPLES } from './examples.js';
import { inspectPdf } from './inspect.js';
import { replayed, sendFile, urlAnswer } from './respond.js';
import { InspectBody, InspectResponse, SplitBody, TransformBody, type TransformRequest } from './schema.js';
import { openSource, type SourceDocuments, type SourceScope, sourceFailure } from './source.js';
import { checkSplitShape, partsOf, splitPdf } from './split.js';
import type { ToolBudget } from './tools.js';
import { checkStepOrder, runSteps } from './transform.js';

export interface PdfToolsDeps {
  clock: Clock;
  production: Pick<Production, 'produceMadeFile'>;
  idempotency: IdempotencyStore;
  documents: SourceDocuments & {
    present(row: DocumentRow): DocumentJson;
    storedPdfs: StoredPdfPort;
  };
  certificates: { signingKey(teamId: string, certificateId: string, at: Date): Promise<SigningKey> };
  /** How long qpdf and poppler may take over a caller's file (config pdfToolTimeoutMs). */
  toolBudget: ToolBudget;
}

const TAGS = ['PDF tools'];

const TRANSFORMED = fileResponse(
  'The PDF, or with `response: url` the Document JSON with a signed link',
  ['application/pdf'],
  {
    json: Type.Intersect([
      DocumentSchema,
      Type.Object({
        filename: Type.String(),
        metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
        warnings: Type.Array(Type.Unknown()),
        blocked_resources: Type.Array(Type.String()),
      }),
    ]),
    headers: {
      'content-disposition': HEADER.contentDisposition,
      'x-document-id': HEADER.documentId,
      'x-pages': HEADER.pages,
    },
  },
);

function sourceScope(deps: PdfToolsDeps, auth: AuthContext): SourceScope {
  return {
    teamId: auth.team.id,
    test: auth.mode === 'test',
    documents: deps.documents,
    budget: deps.toolBudget,
  };
}

/** POST /pdf/inspect, /pdf/transform and /pdf/split (extensions, docs/pdf-tools.md). */
export function registerPdfToolRoutes(app: App, deps: PdfToolsDeps): void {
  app.post(
    '/pdf/inspect',
    {
      schema: {
        tags: TAGS,
        operationId: 'inspectPdf',
        summary: 'Inspect a PDF',
        description:
          'Extension: what a PDF is and holds — pages and their sizes, version, encryption, tags, PDF/A and PDF/UA identification, metadata, attachments, form fields, signatures (checked), fonts and, with `text: true`, the text of each page. The source is a stored document of the key’s mode or the file itself. Not counted as a document. Errors: `invalid_request` (a damaged file names `source.pdf_base64`; a missing or wrong password names `password`), `document_not_found`, `file_expired`.',
        body: withExamples(InspectBody, INSPECT_EXAMPLES),
        response: { 200: InspectResponse, ...errorResponses(404, 410, 413), ...COMMON_ERRORS },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const source = await openSource(request.body.source, request.body.password, sourceScope(deps, auth));
      try {
        return await inspectPdf(source, { text: request.body.text === true });
      } catch (err) {
        throw sourceFailure(err, {
          field: source.field,
          passwordSent: request.body.password !== undefined,
          budget: source.budget,
        });
      }
    },
  );

  app.post(
    '/pdf/transform',
    {
      schema: {
        tags: TAGS,
        operationId: 'transformPdf',
        summary: 'Transform a PDF',
        description:
          'Extension: runs `steps` in order over a PDF — keep and reorder `pages`, `rotate`, `merge`, `fill` and `flatten` a form, and the finishing of POST /v1/pdf (`stamp`, `metadata`, `attach`, `pdf_a`, `protect`, `sign`, same shapes and rules) — and answers the result as POST /v1/pdf answers a document: recorded in the log, counted, stored with a signed link (`response: url`), `pdf.created` sent to webhooks; an `Idempotency-Key` works as there. Not `async`. Errors: `invalid_request` (`details.field` names the source, `password` or `steps[i]…`), `document_not_found`, `file_expired`, `document_too_large`, `plan_limit_reached`, `spending_cap_reached`, `idempotency_conflict`, `idempotency_mismatch`.',
        body: withExamples(TransformBody, TRANSFORM_EXAMPLES),
        headers: IdempotencyHeader,
        response: {
          200: TRANSFORMED,
          ...errorResponses(402, 404, 409, 410, 413, 422, 503),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      checkStepOrder(request.body.steps);
      return withIdempotency(deps.idempotency, {
        key,
        scope: { teamId: auth.team.id, mode: auth.mode, route: 'POST /pdf/transform' },
        body: request.body,
        run: (remember) => transform(deps, reply, auth, request.body, remember),
        replay: (first) => replay(deps, reply, auth, first),
      });
    },
  );

  app.post(
    '/pdf/split',
    {
      schema: {
        tags: TAGS,
        operationId: 'splitPdf',
        summary: 'Split a PDF',
        description:
          'Extension: a ZIP of PDFs named `{name}-{n}.pdf`, one per entry of `ranges` (e.g. `["1", "2-3"]`) or per `every` pages. Not recorded or counted as documents. Errors: `invalid_request` (`details.field` names the source, `password`, `ranges[i]` or `every`), `document_not_found`, `file_expired`.',
        body: withExamples(SplitBody, SPLIT_EXAMPLES),
        response: {
          200: fileResponse('A ZIP of the parts', ['application/zip'], {
            headers: { 'content-disposition': HEADER.contentDisposition },
          }),
          ...errorResponses(404, 410, 413),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { body } = request;
      checkSplitShape(body);
      const source = await openSource(body.source, body.password, sourceScope(deps, auth));
      const zip = await splitPdf(source, partsOf(source.pages, body));
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${source.name}.zip"`)
        .header('cache-control', 'no-store')
        .send(zip);
    },
  );
}

/** The source's name with the `.pdf` the result takes (the request's `filename` over it). */
function resultName(body: TransformRequest, sourceName: string): string {
  return sanitizeFilename(body.filename ?? `${sourceName}.pdf`, '.pdf');
}

async function transform(
  deps: PdfToolsDeps,
  reply: FastifyReply,
  auth: AuthContext,
  body: TransformRequest,
  remember: Remember,
) {
  const test = auth.mode === 'test';
  const caller = { teamId: auth.team.id, plan: auth.plan };
  const response = body.response ?? 'binary';
  const source = await openSource(body.source, body.password, sourceScope(deps, auth));
  const onRecorded = remember
    ? (trx: Db, documentId: string) => remember(trx, { documentId, answer: response as Answer })
    : undefined;
  const produced = await deps.production.produceMadeFile({
    caller,
    test,
    purpose: { kind: 'direct', response, replayable: Boolean(remember) },
    filename: resultName(body, source.name),
    ...(body.metadata ? { metadata: body.metadata } : {}),
    make: () =>
      runSteps(source, body.steps, {
        teamId: auth.team.id,
        test,
        now: deps.clock.now(),
        storedPdfs: deps.documents.storedPdfs,
        signingKeys: deps.certificates,
      }).then(({ pdf, pages, signed }) => ({ file: pdf, pages, signed })),
    ...(onRecorded ? { onRecorded } : {}),
  });
  if (response === 'binary') return sendFile(reply, produced);
  reply.header('cache-control', 'no-store');
  return urlAnswer(produced, deps.documents.present);
}

async function replay(deps: PdfToolsDeps, reply: FastifyReply, auth: AuthContext, claim: Replay) {
  const row = await deps.documents.findForTeam(auth.team.id, claim.documentId);
  const file = row ? await deps.documents.readStoredFile(row) : null;
  if (!row || !file)
    throw new AppError('file_expired', 'The document this Idempotency-Key made is no longer stored.');
  if (claim.answer === 'binary') return sendFile(reply, replayed(row, file));
  reply.header('cache-control', 'no-store');
  return urlAnswer(replayed(row, file), deps.documents.present);
}
