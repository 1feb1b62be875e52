import { Type } from 'typebox';
import { jsonResponse } from '../http/openapi.js';
import { ErrorResponse } from '../http/schemas.js';
import type { App } from '../http/server.js';

const Link = (description: string) => Type.String({ format: 'uri', description });

const ApiIndex = Type.Object({
  name: Type.Literal('Quire'),
  version: Type.String({ description: 'Quire’s version (as GET /version reports it).' }),
  links: Type.Object({
    docs: Link('The API reference (HTML).'),
    openapi: Link('The OpenAPI 3.1 document the reference is built from.'),
    errors: Link('Every error code, its HTTP status and what to do about it.'),
    dashboard: Link('The browser dashboard (sign in with the link the first run prints).'),
    health: Link('Readiness: answers 200 when the service can render.'),
  }),
});

/**
 * GET /v1 (extension): the API base answers with where to go next instead of a 404, so the address the start
 * banner prints is a working link. No key needed; absolute links on the public URL.
 */
export function registerApiIndex(app: App, deps: { publicUrl: () => string; version: string }): void {
  app.get(
    '/v1',
    {
      schema: {
        tags: ['Operations'],
        operationId: 'getApiIndex',
        summary: 'Links to the API reference, the OpenAPI document, the error codes and the dashboard',
        description:
          'The API base. Needs no key: it answers with absolute links (on QUIRE_PUBLIC_URL) to the places a new user looks for first. Errors: `rate_limited` (the per-address budget).',
        security: [],
        response: { 200: jsonResponse('Where to go next', ApiIndex), 429: ErrorResponse },
      },
    },
    async () => {
      const base = deps.publicUrl();
      return {
        name: 'Quire' as const,
        version: deps.version,
        links: {
          docs: `${base}/docs`,
          openapi: `${base}/v1/openapi.json`,
          errors: `${base}/docs/errors`,
          dashboard: `${base}/app/`,
          health: `${base}/readyz`,
        },
      };
    },
  );
}
