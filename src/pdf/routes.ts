import type { DocumentJson } from '../documents/present.js';
import type { DocumentRow } from '../documents/repository.js';
import { authOf } from '../http/auth-context.js';
import { COMMON_ERRORS, ErrorResponse } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { type BackgroundDeps, enqueueDocument, produceDocument } from '../production/index.js';
import { checkPdfRequestRules } from './request-rules.js';
import { type RecordedDocument, sendBinary, urlBody } from './respond.js';
import { PdfQueuedResponse, PdfRequestBody, PdfUrlResponse } from './schema.js';

export interface PdfRouteDeps {
  production: BackgroundDeps;
  /** The spec's Document object with fresh signed links. */
  present(row: DocumentRow): DocumentJson;
  /** Look for due background jobs now (after an enqueue). */
  wakeJobs(): void;
}

/** POST /pdf (spec: POST /pdf). HTTP concerns only; the work is production's one use case. */
export function registerPdfRoutes(app: App, deps: PdfRouteDeps): void {
  app.post(
    '/pdf',
    {
      schema: {
        tags: ['PDF'],
        summary: 'Generate a PDF',
        body: PdfRequestBody,
        response: {
          200: PdfUrlResponse,
          202: PdfQueuedResponse,
          404: ErrorResponse,
          413: ErrorResponse,
          422: ErrorResponse,
          503: ErrorResponse,
          504: ErrorResponse,
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const body = request.body;
      // A test key always makes test documents (spec: POST /pdf `test`).
      const test = auth.mode === 'test' || body.test === true;
      checkPdfRequestRules(body);
      const caller = { teamId: auth.team.id, plan: auth.plan };
      if (body.async === true) {
        const queued = await enqueueDocument(deps.production, caller, body, test);
        deps.wakeJobs();
        return reply.code(202).header('location', `/v1/pdf/${queued.id}`).send(queued);
      }
      const response = body.response ?? 'binary';
      const produced = (await produceDocument(deps.production, {
        caller,
        request: body,
        purpose: 'document',
        test,
        storage: response === 'url' ? 'required' : test ? 'never' : 'if_room',
        slot: 'direct',
      })) as RecordedDocument;
      if (response === 'binary') return sendBinary(reply, produced);
      reply.header('cache-control', 'no-store');
      return urlBody(produced, deps.present);
    },
  );
}
