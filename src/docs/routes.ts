import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from '../http/server.js';
import { registerApiIndex } from './api-index.js';
import { EInvoiceDoc } from './einvoice-schema.js';
import { renderErrorsPage } from './errors-page.js';
import { renderLiquidPage } from './liquid-page.js';
import { finishDocument } from './openapi-transform.js';
import { REFERENCE_UI } from './reference-ui.js';

/** The top of the reference: what a first request needs (README.md "Quick start", docs/client.md). */
const INTRODUCTION = [
  'Self-hosted PDF generation: Liquid templates and HTML to PDF, e-invoices, webhooks.',
  '',
  '**Authentication.** Send an API key as `Authorization: Bearer qk_live_…` (or `qk_test_…`: watermarked, not counted). The first start prints the owner’s keys; more are made in the dashboard or with POST /keys.',
  '',
  '**Errors.** Every error answers `{"error":{"code","message","docs_url","details?"}}`; [/docs/errors](/docs/errors) lists each code with its status and whether to retry. Quote the `x-request-id` header when reporting a problem.',
  '',
  '**Templates** are Liquid: [/docs/liquid](/docs/liquid) lists Quire’s filters (`money`, `number`, `percent`, `date_format`) and its missing-variable warnings.',
  '',
  '**Lists** page three ways: `limit`/`offset` with `has_more` (templates), `before`/`next_before` (documents, batches, deliveries) and `after`/`next_after` (batch items); the TypeScript client iterates all of them alike.',
  '',
  '**TypeScript client.** `npm install ./quire-client-1.0.0.tgz` (from `npm pack` in clients/typescript), then `const quire = new Quire({ baseUrl, apiKey })`: each operation below shows its call. The raw document: [/v1/openapi.json](/v1/openapi.json).',
].join('\n');

/** Registers OpenAPI generation. Must run before any route is registered so every route is collected. */
export async function registerOpenApi(app: App, publicUrl: () => string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire API',
        version: '1.0.0',
        description: INTRODUCTION,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/v1' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // The dashboard's session (docs/dashboard.md "Dashboard users and sessions"); POST/PUT/PATCH/DELETE also need x-csrf-token.
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'quire_session',
            description:
              'quire_session over http; over https (TLS, a trusted proxy’s X-Forwarded-Proto, or an https QUIRE_PUBLIC_URL) the cookie is __Host-quire_session. Several cookies of the name are refused (400 invalid_request).',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    // Routes live under /v1 in a prefixed plugin; the document's server url carries the prefix.
    transform: ({ schema, url }) => ({
      schema,
      url: url === '/v1' ? '/' : url.startsWith('/v1/') ? url.slice(3) : url,
    }),
    // Named components, and the headers and errors every request shares (src/docs/openapi-transform.ts).
    transformObject: (documentObject) =>
      finishDocument((documentObject as { openapiObject: Record<string, unknown> }).openapiObject, [
        EInvoiceDoc,
      ]),
    hideUntagged: true,
  });
  void publicUrl;
}

/**
 * GET /v1 (the API base's index of links), GET /v1/openapi.json, the docs UI at /docs (assets served locally,
 * no CDN), /docs/errors and /docs/liquid (the Liquid filter reference, docs/liquid-filters.md).
 */
export async function registerDocsRoutes(
  app: App,
  deps: { publicUrl: () => string; version: string },
): Promise<void> {
  registerApiIndex(app, deps);
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(renderErrorsPage()),
  );
  app.get('/docs/liquid', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(renderLiquidPage()),
  );
  await app.register(swaggerUi, REFERENCE_UI);
}
