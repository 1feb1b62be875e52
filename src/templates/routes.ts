import { Type } from 'typebox';
import { authOf } from '../accounts/index.js';
import { withExamples } from '../http/openapi.js';
import { COMMON_ERRORS, ErrorResponse, IdParams } from '../http/schemas.js';
import type { App } from '../http/server.js';
import { linksOf, storeDeps, type TemplateRouteDeps } from './deps.js';
import { assertLiveKey, hitChangeBudget } from './limits.js';
import { presentSummary, presentTemplate, TemplateSchema, TemplateSummarySchema } from './present.js';
import { readTemplate } from './records.js';
import { listTemplates, type TemplateRow, type VersionRow } from './repository.js';
import { CreateTemplateBody, ListQuery, UpdateTemplateBody, VersionQuery } from './schemas.js';
import { authorOf, createTemplate, deleteTemplate, updateTemplate } from './service.js';

const TAGS = ['Templates'];
const NOT_FOUND = { 404: ErrorResponse };

/** A template as the API shows it, with `cache-control: no-store`: it carries signed links (SPEC: conventions 8). */
function presentUncached(
  reply: { header(name: string, value: string): unknown },
  deps: TemplateRouteDeps,
  template: TemplateRow,
  version: VersionRow,
) {
  reply.header('cache-control', 'no-store');
  return presentTemplate(template, version, linksOf(deps));
}

/** A live key with change budget left (spec: Authentication 4; Limits, template changes). */
export async function beginChange(deps: TemplateRouteDeps, auth: ReturnType<typeof authOf>): Promise<void> {
  assertLiveKey(auth);
  await hitChangeBudget(deps.services.rate, auth.team.id, deps.services.clock.now().getTime());
}

/** POST/GET /templates, GET/PUT/DELETE /templates/<id> (spec: Templates). Every answer carries a signed link. */
export function registerTemplateCrudRoutes(app: App, deps: TemplateRouteDeps): void {
  const { db } = deps.services;
  app.post(
    '/templates',
    {
      schema: {
        tags: TAGS,
        operationId: 'createTemplate',
        summary: 'Create a template (version 1); live keys only',
        description:
          'Stores a Liquid template as version 1: HTML and CSS with `{{ fields }}`, sample data for previews and thumbnails, and page settings. Render it with POST /pdf and `template_id`. The HTML is parsed on save, so syntax errors answer here rather than at render time. Live keys only. Errors: `invalid_request`, `template_render_error` (the Liquid does not parse: details say where), `plan_limit_reached` (the plan’s template count), `forbidden` (a test key).',
        body: withExamples(CreateTemplateBody, {
          invoice: {
            summary: 'An invoice template with sample data and page settings',
            value: {
              name: 'Invoice',
              html: '<h1>Invoice {{ number }}</h1><p>{{ customer }}</p>',
              css: 'h1 { font-size: 20pt; }',
              sample_data: { number: '1001', customer: 'Ada Lovelace' },
              settings: { mode: 'print', format: 'A4', margin: '20mm' },
            },
          },
        }),
        response: { 201: TemplateSchema, 402: ErrorResponse, 422: ErrorResponse, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      await beginChange(deps, auth);
      const { template, version } = await createTemplate(storeDeps(deps), auth, request.body);
      reply.code(201);
      return presentUncached(reply, deps, template, version);
    },
  );

  app.get(
    '/templates',
    {
      schema: {
        tags: TAGS,
        operationId: 'listTemplates',
        summary: 'List templates, most recently updated first, without content',
        description:
          'The team’s templates without their content, most recently updated first, in pages of `limit` (`offset`, `has_more`); GET /templates/{id} gives one with its HTML. Errors: `invalid_request` (limit 1 to 100).',
        querystring: ListQuery,
        response: {
          200: Type.Object({ data: Type.Array(TemplateSummarySchema), has_more: Type.Boolean() }),
          ...COMMON_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { limit, offset } = request.query;
      const rows = await listTemplates(db, auth.team.id, limit + 1, offset);
      const links = linksOf(deps);
      reply.header('cache-control', 'no-store');
      return {
        data: rows.slice(0, limit).map((r) => presentSummary(r, links)),
        has_more: rows.length > limit,
      };
    },
  );

  app.get(
    '/templates/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'getTemplate',
        summary: 'One template at a version (default: current)',
        description:
          'One template with its HTML, CSS, sample data and settings, at the current version or at `version`. Errors: `template_not_found` (unknown id, or the version is no longer kept), `invalid_request`.',
        params: IdParams,
        querystring: VersionQuery,
        response: { 200: TemplateSchema, ...NOT_FOUND, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const asked = request.query.version;
      const { template, version } = await readTemplate(
        db,
        auth.team.id,
        request.params.id,
        (t) => asked ?? t.current_version,
      );
      return presentUncached(reply, deps, template, version);
    },
  );

  app.put(
    '/templates/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateTemplate',
        summary: 'Change a template; content changes make a new version; live keys only',
        description:
          'Changes a template. A change of html, css, sample_data or settings makes a new version, which renders without a pin use at once; a rename alone does not. Pin a version (POST /templates/{id}/pin) to keep production renders on it while you edit. Live keys only. Errors: `template_not_found`, `template_render_error` (the new Liquid does not parse), `invalid_request`, `forbidden` (a test key).',
        params: IdParams,
        body: withExamples(UpdateTemplateBody, {
          rename: { summary: 'Rename (no new version)', value: { name: 'Invoice 2026' } },
          content: {
            summary: 'New content (a new version)',
            value: { html: '<h1>Invoice no. {{ number }}</h1>', css: null },
          },
        }),
        response: { 200: TemplateSchema, ...NOT_FOUND, 422: ErrorResponse, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      await beginChange(deps, auth);
      const { template, version } = await updateTemplate(storeDeps(deps), auth.team.id, request.params.id, {
        ...request.body,
        author: authorOf(auth),
      });
      return presentUncached(reply, deps, template, version);
    },
  );

  app.delete(
    '/templates/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteTemplate',
        summary: 'Delete a template (renders fail from now on; erased after 30 days); live keys only',
        description:
          'Deletes a template: renders with it answer `template_not_found` from now on and its versions are erased after 30 days; PDFs already rendered stay. Live keys only. Errors: `template_not_found`, `forbidden` (a test key).',
        params: IdParams,
        response: { 204: Type.Null(), ...NOT_FOUND, ...COMMON_ERRORS },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      await beginChange(deps, auth);
      await deleteTemplate(storeDeps(deps), auth.team.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
