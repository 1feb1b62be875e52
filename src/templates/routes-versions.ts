import { authOf } from '../accounts/index.js';
import { withExamples } from '../http/openapi.js';
import { registerResourceRoute } from '../http/resource-route.js';
import { COMMON_ERRORS, ErrorResponse, IdParams } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { linksOf, storeDeps, type TemplateRouteDeps } from './deps.js';
import { TemplateFieldsSchema, templateFields } from './fields.js';
import { presentSummary, TemplateSummarySchema } from './present.js';
import { renderPreview } from './preview.js';
import { contentOf, notFound, readTemplate } from './records.js';
import { findTemplate, listVersions } from './repository.js';
import { PREVIEW_PDF_RESPONSES, sendPreview } from './respond.js';
import { beginChange } from './routes.js';
import { PinBody, PreviewBody, VersionList, VersionQuery } from './schemas.js';
import { pinTemplate } from './service.js';
import { versionToUse } from './versions.js';

const TAGS = ['Templates'];

/** GET versions, POST pin, GET fields, POST preview (spec: Templates). */
export function registerTemplateVersionRoutes(app: App, deps: TemplateRouteDeps): void {
  const { db } = deps.services;
  registerResourceRoute(app, {
    method: 'GET',
    url: '/templates/:id/versions',
    doc: {
      tags: TAGS,
      operationId: 'listTemplateVersions',
      summary: 'Versions still kept (latest 50 plus the pinned one), newest first',
      description:
        'The versions still kept (the latest 50 plus the pinned one), newest first, with when each was made: pick one to pin, preview or render with `template_version`. Errors: `template_not_found`, `invalid_request`.',
    },
    // Each version carries a signed thumbnail link, hence no-store (spec: Conventions 8).
    answer: VersionList,
    find: async (request, id) => {
      const template = await findTemplate(db, authOf(request).team.id, id);
      if (!template) throw notFound(id);
      return template;
    },
    respond: async (template) => ({ data: await listVersions(db, template.id) }),
  });

  app.post(
    '/templates/:id/pin',
    {
      schema: {
        tags: TAGS,
        operationId: 'pinTemplateVersion',
        summary: 'Pin a version (renders without template_version use it) or unpin with null; live keys only',
        description:
          'Pins a version: renders without `template_version` use it whatever is saved later, so edits can be previewed before they reach production. `null` unpins (renders use the current version). Live keys only. Errors: `template_not_found` (unknown template, or the version is not kept), `invalid_request`, `forbidden` (a test key).',
        params: IdParams,
        body: withExamples(PinBody, {
          pin: { summary: 'Pin version 1', value: { version: 1 } },
          unpin: { summary: 'Unpin (renders use the current version)', value: { version: null } },
        }),
        response: { 200: TemplateSummarySchema, 404: ErrorResponse, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      await beginChange(deps, auth);
      const template = await pinTemplate(
        storeDeps(deps),
        auth.team.id,
        request.params.id,
        request.body.version,
      );
      reply.header('cache-control', 'no-store');
      return presentSummary(template, linksOf(deps));
    },
  );

  app.get(
    '/templates/:id/fields',
    {
      schema: {
        tags: TAGS,
        operationId: 'getTemplateFields',
        summary: "Form fields read from a version's sample data (default: pinned, else current version)",
        description:
          'The data fields of a version’s sample data, as a flat list and a tree, for building a form (the dashboard’s render form uses it). Errors: `template_not_found`, `invalid_request`.',
        params: IdParams,
        querystring: VersionQuery,
        response: { 200: TemplateFieldsSchema, 404: ErrorResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => {
      const auth = authOf(request);
      // The form fills merge_data for renders, which use the pinned version unless told otherwise.
      const { version } = await readTemplate(db, auth.team.id, request.params.id, (t) =>
        versionToUse(t, request.query.version),
      );
      return templateFields(contentOf(version).sampleData);
    },
  );

  app.post(
    '/templates/:id/preview',
    {
      // Spec: data and version are both optional, so the body may be left out altogether.
      config: { optionalBody: true },
      schema: {
        tags: TAGS,
        operationId: 'previewTemplate',
        summary: 'Watermarked preview PDF (never stored, counted or logged)',
        description:
          'Renders a stored version (default: pinned, else current) with `data` or its sample data, watermarked. Nothing is stored, counted or logged, so use it freely while editing. Errors: `template_not_found`, `template_render_error`, `render_timeout`, `document_too_large`, `service_busy`, `invalid_request`.',
        params: IdParams,
        body: withExamples(PreviewBody, {
          data: {
            summary: 'Preview the pinned (else current) version with data',
            value: { data: { number: '1002' } },
          },
          sample: { summary: 'Preview version 1 with its sample data', value: { version: 1 } },
        }),
        response: PREVIEW_PDF_RESPONSES,
      },
    },
    async (request, reply) => {
      const { services } = deps;
      const preview = await renderPreview(
        { clock: services.clock, rate: services.rate, production: deps.production },
        authOf(request),
        request.params.id,
        request.body,
      );
      return sendPreview(reply, preview);
    },
  );
}
