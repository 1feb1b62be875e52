import type { FastifyReply } from 'fastify';
import { type AuthContext, authOf } from '../accounts/index.js';
import type { DocumentJson, DocumentRow } from '../documents/index.js';
import { plainDeliver } from '../email/index.js';
import { accessibilityHeader } from '../finishing/index.js';
import {
  errorResponses,
  fileResponse,
  HEADER,
  IdempotencyHeader,
  jsonResponse,
  withExamples,
} from '../http/openapi.js';
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
import { AppError } from '../shared/errors.js';
import type { Db } from '../storage/index.js';
import { PDF_EXAMPLES } from './examples.js';
import { checkPdfRequestRules } from './request-rules.js';
import { replayBinary, replayUrl, sendBinary, urlBody } from './respond.js';
import { PdfQueuedResponse, type PdfRequest, PdfRequestBody, PdfUrlResponse } from './schema.js';

export interface PdfRouteDeps {
  production: Pick<Production, 'produce' | 'enqueue'>;
  idempotency: IdempotencyStore;
  documents: {
    /** The spec's Document object with fresh signed links. */
    present(row: DocumentRow): DocumentJson;
    findForTeam(teamId: string, id: string): Promise<DocumentRow | null>;
    readStoredFile(row: DocumentRow): Promise<Buffer | null>;
  };
  /** Look for due background jobs now (after an enqueue). */
  wakeJobs(): void;
}

/** The 200 answer: the file by default (`response: binary`), the Document JSON for `response: url`. */
const PDF_CREATED = fileResponse(
  'The PDF (XML for an XRechnung e-invoice), or with `response: url` the Document JSON with a signed link',
  ['application/pdf', 'application/xml'],
  {
    json: PdfUrlResponse,
    headers: {
      'content-disposition': HEADER.contentDisposition,
      'x-document-id': HEADER.documentId,
      'x-pages': HEADER.pages,
      'x-warnings': HEADER.warnings,
      'x-blocked-resources': HEADER.blockedResources,
      'x-e-invoice': HEADER.eInvoice,
      'x-accessibility': HEADER.accessibility,
    },
  },
);

/** POST /pdf (spec: POST /pdf). HTTP concerns only; the work is production's one use case. */
export function registerPdfRoutes(app: App, deps: PdfRouteDeps): void {
  app.post(
    '/pdf',
    {
      schema: {
        tags: ['PDFs'],
        operationId: 'createPdf',
        summary: 'Generate a PDF',
        description:
          'Renders a PDF from a stored template (`template_id` with `data`) or from raw `html`, in `fast` (screen layout) or `print` mode (paged media: running headers, page numbers). `response: binary` (default) answers with the file, its document id and page count in headers; `response: url` with the Document and a signed link; `async: true` queues it (202) and announces the result with `pdf.created` / `pdf.failed` webhooks. Send an `Idempotency-Key` so that a retry never renders or counts twice. Test keys render watermarked and are not counted. Errors: `invalid_request` (details.field names the field), `template_not_found`, `template_render_error` (the Liquid fails with this data; with `async: true` only a Liquid that does not parse is answered here, what fails while rendering fails the queued document with `pdf.failed`), `render_timeout`, `document_too_large`, `payload_too_large`, `plan_limit_reached`, `spending_cap_reached`, `idempotency_conflict`, `idempotency_mismatch`, `service_busy` (retry after Retry-After).',
        body: withExamples(PdfRequestBody, PDF_EXAMPLES),
        headers: IdempotencyHeader,
        response: {
          200: PDF_CREATED,
          202: jsonResponse(
            'Queued (`async: true`); the result is announced by webhook events',
            PdfQueuedResponse,
            {
              location: HEADER.location,
            },
          ),
          ...errorResponses(402, 404, 409, 410, 413, 422, 503, 504),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      checkPdfRequestRules(request.body);
      const body = withPlainAddresses(request.body);
      return withIdempotency(deps.idempotency, {
        key,
        scope: { teamId: auth.team.id, mode: auth.mode, route: 'POST /pdf' },
        body: request.body,
        run: (remember) => handle(deps, reply, auth, body, remember),
        replay: (first) => replay(deps, reply, auth, first),
      });
    },
  );
}

async function handle(
  deps: PdfRouteDeps,
  reply: FastifyReply,
  auth: AuthContext,
  body: PdfRequest,
  remember: Remember,
) {
  // A test key always makes test documents (spec: POST /pdf `test`).
  const test = auth.mode === 'test' || body.test === true;
  const caller = { teamId: auth.team.id, plan: auth.plan };
  const answering = (answer: Answer) =>
    remember ? (trx: Db, documentId: string) => remember(trx, { documentId, answer }) : undefined;
  if (body.async === true) {
    const queued = await deps.production.enqueue(caller, body, test, answering('async'));
    deps.wakeJobs();
    return reply.code(202).header('location', `/v1/pdf/${queued.id}`).send(queued);
  }
  const response = body.response ?? 'binary';
  const onRecorded = answering(response);
  const produced = await deps.production.produce({
    caller,
    request: body,
    // A key's replay needs the file: production stores a test binary answer only then (storage-policy.ts).
    purpose: { kind: 'direct', response, replayable: Boolean(remember) },
    test,
    ...(onRecorded ? { onRecorded } : {}),
  });
  // Extension: the report the request asked for, whichever the answer.
  if (produced.accessibility) reply.header('x-accessibility', accessibilityHeader(produced.accessibility));
  if (response === 'binary') return sendBinary(reply, produced);
  reply.header('cache-control', 'no-store');
  return urlBody(produced, deps.documents.present);
}

/** The first answer again, without rendering or counting (spec: Idempotency; no warnings, no blocked resources). */
async function replay(deps: PdfRouteDeps, reply: FastifyReply, auth: AuthContext, claim: Replay) {
  const row = await deps.documents.findForTeam(auth.team.id, claim.documentId);
  if (claim.answer === 'async') {
    return reply
      .code(202)
      .header('location', `/v1/pdf/${claim.documentId}`)
      .send({ id: claim.documentId, status: 'queued', created_at: row?.created_at ?? claim.createdAt });
  }
  const file = row ? await deps.documents.readStoredFile(row) : null;
  if (!row || !file)
    throw new AppError('file_expired', 'The document this Idempotency-Key made is no longer stored.');
  if (claim.answer === 'binary') return replayBinary(reply, row, file);
  reply.header('cache-control', 'no-store');
  return replayUrl(row, deps.documents.present);
}

/** The body with `deliver.email`'s addresses checked and normalised (one plain address each). */
function withPlainAddresses(body: PdfRequest): PdfRequest {
  return body.deliver === undefined ? body : { ...body, deliver: plainDeliver(body.deliver, 'deliver') };
}
