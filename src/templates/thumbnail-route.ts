import { Type } from 'typebox';
import { errorResponses } from '../http/openapi.js';
import type { App } from '../http/server.js';
import { THUMBNAIL_PNG_RESPONSE, ThumbnailFileParams, thumbnailIdOf } from '../http/thumbnail-link.js';
import { AppError } from '../shared/errors.js';
import type { TemplateRouteDeps } from './deps.js';
import { thumbnailResource } from './present.js';
import { sendPng } from './respond.js';

const ThumbnailQuery = Type.Object(
  {
    v: Type.Optional(Type.String({ description: 'Template version' })),
    exp: Type.Optional(Type.String()),
    sig: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** GET /thumbnails/templates/<id>.png?v=&exp=&sig= (spec: Thumbnails; signed link, no key). */
export function registerTemplateThumbnailRoute(app: App, deps: TemplateRouteDeps): void {
  const { clock } = deps.services;
  app.get(
    '/thumbnails/templates/:file',
    {
      schema: {
        tags: ['Templates'],
        operationId: 'getTemplateThumbnail',
        summary: 'First-page PNG (480 px wide) of a template version (signed link)',
        description:
          'The first page of a template version, rendered with its sample data, as a 480 px wide PNG, through the template’s signed `thumbnail_url`. Needs no key. Errors: `forbidden` (the signature does not match), `file_expired` (the link expired or the version is gone), `template_render_error` (the version does not render with its sample data), `invalid_request`.',
        security: [],
        params: ThumbnailFileParams,
        querystring: ThumbnailQuery,
        response: {
          200: THUMBNAIL_PNG_RESPONSE,
          ...errorResponses(400, 403, 410, 422, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const id = thumbnailIdOf(request.params.file).toLowerCase();
      const { v, exp, sig } = request.query;
      // The version is part of the signed resource, so a malformed one simply fails the signature check.
      const version = v !== undefined && /^[1-9]\d{0,9}$/.test(v) ? Number(v) : 0;
      deps.signer.check(thumbnailResource(id, version), { exp, sig }, clock.now());
      const png = await deps.thumbnails.forVersion(id, version);
      if (!png) throw new AppError('file_expired', 'This template version no longer exists.');
      return sendPng(reply, png);
    },
  );
}
