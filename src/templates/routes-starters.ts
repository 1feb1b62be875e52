import { Type } from 'typebox';
import { authOf } from '../accounts/index.js';
import { fileResponse } from '../http/openapi.js';
import { COMMON_ERRORS, named } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { AppError } from '../shared/errors.js';
import { sendPng } from './respond.js';
import { TemplateSettingsSchema } from './settings.js';
import { findStarter, listStarters, type StarterThumbnails } from './starters.js';

const StarterSchema = named(
  'TemplateStarter',
  Type.Object({
    id: Type.String({ description: 'The starter’s name in the gallery, e.g. `invoice`' }),
    name: Type.String(),
    description: Type.String(),
    html: Type.String({ description: 'Liquid HTML, ready for POST /templates' }),
    css: Type.String(),
    settings: TemplateSettingsSchema,
    sample_data: Type.Record(Type.String(), Type.Unknown()),
    thumbnail_url: Type.String({ description: 'Page 1 as a PNG (same authentication as this list)' }),
  }),
);

const StarterParams = Type.Object(
  { id: Type.String({ pattern: '^[a-z0-9-]{1,40}$', description: 'A starter id from the gallery' }) },
  { additionalProperties: false },
);

/**
 * GET /template-starters and GET /template-starters/<id>/thumbnail.png (extension, tag Templates): the
 * gallery of professional starters. Making a template from one is the ordinary POST /templates with the
 * starter's name, html, css, sample_data and settings, so the result is a template like any other.
 */
export function registerStarterRoutes(app: App, deps: { thumbnails: StarterThumbnails }): void {
  app.get(
    '/template-starters',
    {
      schema: {
        tags: ['Templates'],
        operationId: 'listTemplateStarters',
        summary: 'Template gallery: starters to create templates from (extension)',
        description:
          'Extension: professional starters shipped with Quire (invoice, receipt, quote, letter, certificate, report with a table of contents), each with Liquid HTML, CSS, print-mode settings and sample data, using only fonts Quire installs. Create a template from one by sending its `name`, `html`, `css`, `sample_data` and `settings` to `POST /templates`. Errors: `unauthorized`, `rate_limited`.',
        response: {
          200: Type.Object({ data: Type.Array(StarterSchema) }),
          ...COMMON_ERRORS,
        },
      },
    },
    async () => ({
      data: listStarters().map((s) => ({
        ...s,
        thumbnail_url: `/v1/template-starters/${s.id}/thumbnail.png`,
      })),
    }),
  );

  app.get(
    '/template-starters/:id/thumbnail.png',
    {
      schema: {
        tags: ['Templates'],
        operationId: 'getTemplateStarterThumbnail',
        summary: 'First page of a starter as a PNG, 480 px wide (extension)',
        description:
          'Extension: rendered from the starter’s sample data on first request (in the caller’s render slot) and cached by the server. Errors: `not_found` (no such starter), `service_busy` (no render slot free: retry), `unauthorized`.',
        params: StarterParams,
        response: {
          200: fileResponse('First page, 480 px wide', ['image/png']),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const starter = findStarter(request.params.id);
      if (!starter)
        throw new AppError(
          'not_found',
          `No starter "${request.params.id}"; GET /v1/template-starters lists them.`,
        );
      const { team, plan } = authOf(request);
      return sendPng(reply, await deps.thumbnails.forStarter(starter, { teamId: team.id, plan }));
    },
  );
}
