import { type TSchema, Type } from 'typebox';
import { ErrorResponse } from './schemas.js';

/**
 * OpenAPI annotations for route schemas. None of them changes validation or serialization: Ajv runs with
 * `strict: false` (unknown keywords are ignored), `headers` and `content` are the response forms Fastify
 * and @fastify/swagger both read, and the component marker is read only by the document transform
 * (src/docs/openapi-transform.ts).
 */

/** A header of a response, as @fastify/swagger reads it (a schema with a description). */
type HeaderSchemas = Record<string, TSchema>;

export const HEADER = {
  documentId: Type.String({ description: 'Id of the document record (GET /pdf/{id}).' }),
  pages: Type.Integer({ description: 'Page count of the PDF.' }),
  warnings: Type.String({
    description:
      'JSON array of warnings (`[]` when none), kept under 4 KB; warnings that do not fit are left out.',
  }),
  blockedResources: Type.Integer({ description: 'Refused external requests (0 to 10).' }),
  eInvoice: Type.String({ description: 'E-invoices only: `<standard>/<profile>`, e.g. `factur-x/en16931`.' }),
  contentDisposition: Type.String({ description: 'attachment or inline, with the file name.' }),
  accessibility: Type.String({
    description:
      'Extension, with `accessibility_report: true`: `tagged; ua1=pass`, or `ua1=fail(n)` with the failures found (`untagged` for a file without tags).',
  }),
  location: Type.String({ description: 'Path of the queued document: /v1/pdf/{id}.' }),
} as const;

/**
 * The optional `Idempotency-Key` request header, for the document only: no constraint here, so its checks
 * and messages stay those of parseIdempotencyKey (src/idempotency).
 */
export const IdempotencyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        '1 to 255 printable ASCII characters without spaces. The same key and body within 24 hours return the first result.',
    }),
  ),
});

const Binary = Type.String({ format: 'binary' });

/**
 * A response whose body is a file. Fastify picks a serializer by content type and sends Buffers and
 * streams unserialized, so the JSON alternative (`json`) keeps its serializer exactly as before.
 */
export function fileResponse(
  description: string,
  mediaTypes: readonly string[],
  options: { headers?: HeaderSchemas; json?: TSchema } = {},
) {
  const content: Record<string, { schema: TSchema }> = {};
  for (const type of mediaTypes) content[type] = { schema: Binary };
  if (options.json) content['application/json'] = { schema: options.json };
  return { description, ...(options.headers ? { headers: options.headers } : {}), content };
}

/**
 * A JSON response with a description and response headers (`x-response-description` is @fastify/swagger's
 * keyword for it: a `description` would be copied into a named component and differ between uses).
 */
export function jsonResponse<T extends TSchema>(description: string, schema: T, headers?: HeaderSchemas): T {
  return { ...schema, 'x-response-description': description, ...(headers ? { headers } : {}) };
}

/** The error object for each listed status (spec: Errors), for routes that add to COMMON_ERRORS. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof ErrorResponse> {
  const out = {} as Record<S, typeof ErrorResponse>;
  for (const status of statuses) out[status] = ErrorResponse;
  return out;
}

/** A named example of a request body, as the OpenAPI media type shows it (Swagger UI's "Try it out"). */
export interface BodyExample {
  summary: string;
  value: Record<string, unknown>;
}

/**
 * Stands for an id the caller has (a template, an endpoint) in examples; the test that sends every example
 * to a real server (test/integration/client/examples.test.ts) puts a real id in its place.
 */
export const EXAMPLE_ID = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';

/** The body schema with examples (@fastify/swagger's `x-examples`, moved to the media type; Ajv ignores it). */
export function withExamples<T extends TSchema>(schema: T, examples: Record<string, BodyExample>): T {
  return { ...schema, 'x-examples': examples };
}

const HealthStatus = Type.Object({
  status: Type.String({ description: '`ok`, or why the service is not ready' }),
});

/** The schema of GET /healthz or /readyz: no key, outside /v1, for orchestrators and load balancers. */
export function healthSchema(operationId: string, summary: string, description: string) {
  return {
    tags: ['Operations'],
    operationId,
    summary,
    description,
    security: [],
    response: {
      200: jsonResponse('Up (ready)', HealthStatus),
      // The per-address budget covers every request (spec: Limits).
      429: ErrorResponse,
      503: jsonResponse('Not ready (or shutting down)', HealthStatus),
    },
  };
}
