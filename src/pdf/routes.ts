import type { AppServices } from '../app.js';
import type { LinkSigner } from '../documents/signed-links.js';
import { authOf } from '../http/auth-context.js';
import { COMMON_ERRORS, ErrorResponse } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { AppError } from '../shared/errors.js';
import { generatePdf, type PipelineDeps } from './pipeline.js';
import { checkPdfRequestRules } from './request-rules.js';
import { sendBinary, urlBody } from './respond.js';
import { PdfQueuedResponse, PdfRequestBody, PdfUrlResponse } from './schema.js';

export interface PdfRouteDeps extends PipelineDeps {
  signer: LinkSigner;
  /** Background rendering (async: true), provided by the jobs capability. */
  enqueue:
    | ((
        auth: ReturnType<typeof authOf>,
        body: import('./schema.js').PdfRequest,
      ) => Promise<{ id: string; created_at: string }>)
    | null;
}

/** POST /pdf (spec: POST /pdf). HTTP concerns only; the work is in pipeline.ts. */
export function registerPdfRoutes(app: App, deps: PdfRouteDeps, services: AppServices): void {
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
      // A test key always makes test documents (spec: POST /pdf `test`).
      const body = { ...request.body, test: auth.mode === 'test' || request.body.test === true };
      checkPdfRequestRules(body);
      if (body.async === true) {
        if (!deps.enqueue)
          throw new AppError('invalid_request', 'Background rendering is not enabled on this server.');
        const queued = await deps.enqueue(auth, body);
        return reply
          .code(202)
          .header('location', `/v1/pdf/${queued.id}`)
          .send({ id: queued.id, status: 'queued', created_at: queued.created_at });
      }
      const result = await generatePdf(deps, { teamId: auth.team.id, plan: auth.plan }, body);
      if ((body.response ?? 'binary') === 'binary') return sendBinary(reply, result);
      reply.header('cache-control', 'no-store');
      return urlBody(result, {
        signer: deps.signer,
        publicUrl: services.publicUrl(),
        nowMs: services.clock.now().getTime(),
      });
    },
  );
}
