import { authOf } from '../accounts/index.js';
import { jsonResponse, withExamples } from '../http/openapi.js';
import { IdParams } from '../http/schemas.js';
import type { App } from '../http/server.js';
import type { TemplateRouteDeps } from './deps.js';
import { renderDraftPreview } from './draft-preview.js';
import { DEFAULT_PREVIEW_IMAGE_WIDTH, previewPages } from './preview-pages.js';
import { PREVIEW_ERRORS, PREVIEW_PDF_RESPONSES, sendPreview } from './respond.js';
import { DraftPreviewBody, DraftPreviewPagesBody, DraftPreviewPagesResponse } from './schemas.js';

/**
 * POST /templates/<id>/draft-preview (extension): the dashboard editor's live preview of unsaved HTML, CSS,
 * settings and data. The spec's preview route renders stored versions only and accepts no other fields.
 */
export function registerTemplateDraftRoute(app: App, deps: TemplateRouteDeps): void {
  registerDraftPdfRoute(app, deps);
  registerDraftPagesRoute(app, deps);
}

function draftDeps(deps: TemplateRouteDeps) {
  const { services } = deps;
  return {
    clock: services.clock,
    rate: services.rate,
    production: deps.production,
    db: services.db,
    engine: deps.engine,
  };
}

function registerDraftPdfRoute(app: App, deps: TemplateRouteDeps): void {
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
        response: PREVIEW_PDF_RESPONSES,
      },
    },
    async (request, reply) => {
      const preview = await renderDraftPreview(
        draftDeps(deps),
        authOf(request),
        request.params.id,
        request.body,
      );
      return sendPreview(reply, preview);
    },
  );
}

/**
 * POST /templates/<id>/draft-preview/pages (extension): the same draft preview as page images, which the
 * dashboard editor shows at a readable zoom instead of the browser's PDF viewer. The preview is rendered,
 * watermarked and left uncounted exactly as draft-preview; only the answer's form differs.
 */
function registerDraftPagesRoute(app: App, deps: TemplateRouteDeps): void {
  app.post(
    '/templates/:id/draft-preview/pages',
    {
      schema: {
        tags: ['Templates'],
        operationId: 'previewTemplateDraftPages',
        summary: 'Watermarked preview of unsaved content as PNG page images (extension)',
        description:
          'Renders unsaved HTML, CSS, settings and data exactly as draft-preview does (watermarked; never stored, counted or logged) and answers the first 10 pages as base64 PNG images, `image_width` pixels wide (default 1000), with the page count of the whole preview; `truncated` says when pages were left out. The dashboard’s editor shows these. Errors: `template_not_found`, `template_render_error`, `render_failed`, `render_timeout`, `payload_too_large`, `service_busy`, `invalid_request`.',
        params: IdParams,
        body: withExamples(DraftPreviewPagesBody, {
          draft: {
            summary: 'Page images of edited HTML and data, 800 px wide',
            value: {
              html: '<h1>Invoice {{ number }}</h1>',
              data: { number: '1002' },
              image_width: 800,
            },
          },
        }),
        response: {
          200: jsonResponse(
            'The first pages of the watermarked preview as PNG images',
            DraftPreviewPagesResponse,
          ),
          ...PREVIEW_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const { image_width: width = DEFAULT_PREVIEW_IMAGE_WIDTH, ...draft } = request.body;
      const preview = await renderDraftPreview(draftDeps(deps), authOf(request), request.params.id, draft);
      const pages = await previewPages(preview, width);
      const report = preview.accessibility ? { accessibility: preview.accessibility } : {};
      return reply.header('cache-control', 'no-store').send({ ...pages, ...report });
    },
  );
}
