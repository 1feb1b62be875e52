import { authOf } from '../accounts/auth-context.js';
import { fileResponse, HEADER, withExamples } from '../http/openapi.js';
import { COMMON_ERRORS, ErrorResponse, IdParams } from '../http/schemas.js';
import type { App } from '../http/server.js';
import type { TemplateRouteDeps } from './deps.js';
import { renderDraftPreview } from './draft-preview.js';
import { sendPreview } from './respond.js';
import { DraftPreviewBody } from './schemas.js';

/**
 * POST /templates/<id>/draft-preview (extension): the dashboard editor's live preview of unsaved HTML, CSS,
 * settings and data. The spec's preview route renders stored versions only and accepts no other fields.
 */
export function registerTemplateDraftRoute(app: App, deps: TemplateRouteDeps): void {
  app.post(
    '/templates/:id/draft-preview',
    {
      schema: {
        tags: ['Templates'],
        operationId: 'previewTemplateDraft',
        summary: 'Watermarked preview PDF of unsaved content (extension; never stored, counted or logged)',
        description:
          'Renders unsaved HTML, CSS, settings and data for a template, watermarked, as a render would; nothing is stored, counted or logged. The dashboard’s editor uses it for its live preview. Errors: `template_not_found`, `template_render_error`, `render_timeout`, `payload_too_large`, `service_busy`, `invalid_request`.',
        params: IdParams,
        body: withExamples(DraftPreviewBody, {
          draft: {
            summary: 'Preview edited HTML, CSS, settings and data before saving',
            value: {
              html: '<h1>Invoice {{ number }}</h1>',
              css: 'h1 { color: #333; }',
              settings: { format: 'A4', margin: '20mm' },
              data: { number: '1002' },
            },
          },
        }),
        response: {
          200: fileResponse(
            'The watermarked preview PDF (inline, sent with `Content-Security-Policy: sandbox`)',
            ['application/pdf'],
            {
              headers: { 'content-disposition': HEADER.contentDisposition, 'x-pages': HEADER.pages },
            },
          ),
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
      const { services } = deps;
      const preview = await renderDraftPreview(
        {
          clock: services.clock,
          rate: services.rate,
          production: deps.production,
          db: services.db,
          engine: deps.engine,
        },
        authOf(request),
        request.params.id,
        request.body,
      );
      return sendPreview(reply, preview);
    },
  );
}
