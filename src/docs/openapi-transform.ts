import { isDeepStrictEqual } from 'node:util';
import { COMPONENT_KEY, DOCUMENTED_AS_KEY } from '../http/schemas.js';
import { ERROR_CODES } from '../shared/errors.js';
import { codeSamples } from './code-samples.js';
import { RESPONSE_EXAMPLES } from './response-examples.js';
import { declareSentHeaders, sentHeaderComponents } from './sent-headers.js';
import { TAG_ORDER } from './tags.js';

/**
 * Finishes the document @fastify/swagger builds from the route schemas: named schemas become
 * `components.schemas` with `$ref`s, and the conventions every request shares (spec: Conventions 6–7,
 * Errors), which hooks implement rather than routes, are declared once and referenced from every operation.
 */

type Json = Record<string, unknown>;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Paths served outside `/v1` (the document's server url carries `/v1`). */
const UNVERSIONED_SERVERS = [{ url: '/', description: 'Service root (outside /v1)' }];

const HEADERS: Json = {
  XRequestId: {
    description: 'Request id, `req_` followed by 32 hex characters (quote it when reporting a problem).',
    schema: { type: 'string', pattern: '^req_[0-9a-f]{32}$' },
  },
  RateLimitLimit: {
    description:
      'Requests allowed per minute for this key (on a refusal by the per-address budget: per address).',
    schema: { type: 'integer' },
  },
  RateLimitRemaining: { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until the budget is refilled.', schema: { type: 'integer' } },
  RetryAfter: {
    description: 'Seconds to wait before retrying (rate_limited, service_busy).',
    schema: { type: 'integer' },
  },
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * The transform @fastify/swagger's `transformObject` option calls with the generated document;
 * `documentOnly` are named schemas no route validates with (see `documentedAs`).
 */
export function finishDocument(document: Json, documentOnly: readonly object[] = []): Json {
  const components = (document.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Json;
  for (const schema of documentOnly) hoistNamed(structuredClone(schema), schemas);
  const paths = hoistNamed(document.paths, schemas) as Record<string, Json>;
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/')) continue;
    if (isUnversioned(path)) item.servers = UNVERSIONED_SERVERS;
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      declareConventions(operation);
      declareSentHeaders(operation);
      optionalWhenDefaulted(operation);
      finishReference(method, path, operation);
    }
  }
  for (const [path, item] of Object.entries(OPTIONAL_PATHS)) {
    if (paths[path]) continue;
    const copy = structuredClone(item);
    declareSentHeaders(copy.get as Json);
    finishReference('get', path, copy.get as Json);
    paths[path] = copy;
  }
  return {
    ...document,
    tags: sectionsInUse(paths),
    paths: signedLinksLast(paths),
    components: {
      ...components,
      schemas: withExamples(sortKeys(schemas)),
      headers: { ...HEADERS, ...sentHeaderComponents() },
      responses: RESPONSES,
    },
  };
}

/**
 * Operations endpoints that a server may not have (or not expose): documented here unless a route of the
 * same path documents itself.
 */
const OPTIONAL_PATHS: Record<string, Json> = {
  '/metrics': {
    servers: UNVERSIONED_SERVERS,
    get: {
      tags: ['Operations'],
      operationId: 'getMetrics',
      summary: 'Prometheus metrics (optional: off unless enabled)',
      description:
        'Prometheus metrics (requests, renders, queue depth, Chromium) for scraping. Present only when the server enables metrics; with QUIRE_METRICS_TOKEN set, send it as the bearer token. Errors: 401 `unauthorized` (a wrong or missing token), `not_found` (metrics are off).',
      security: [{ bearer: [] }, {}],
      responses: {
        '200': {
          description: 'Prometheus text exposition format',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
        '401': errorRef('Wrong or missing metrics token'),
        '404': errorRef('Metrics are not enabled'),
      },
    },
  },
  '/version': {
    servers: UNVERSIONED_SERVERS,
    get: {
      tags: ['Operations'],
      operationId: 'getVersion',
      summary: 'Versions of the service and its Chromium (optional: on servers that have it)',
      description:
        'The running version, for support requests and compatibility checks, and (extension) `einvoice_rules`, the official e-invoice rule sets and their releases. Without credentials only these. With an API key or the metrics token (`Authorization: Bearer …`) also `commit` and `chromium`: the exact browser build is not shown to anyone. Errors: `not_found` (not on this server), `rate_limited`.',
      security: [],
      responses: {
        '200': {
          description: 'Version information',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  version: { type: 'string' },
                  chromium: { type: ['string', 'null'] },
                  commit: { type: ['string', 'null'] },
                  einvoice_rules: {
                    type: 'array',
                    description:
                      'Extension: the official e-invoice rule sets and releases POST /v1/e-invoices/validate checks with',
                    items: {
                      type: 'object',
                      properties: { name: { type: 'string' }, version: { type: 'string' } },
                      required: ['name', 'version'],
                    },
                  },
                },
                required: ['version', 'einvoice_rules'],
              },
            },
          },
        },
        '404': errorRef('Not available on this server'),
      },
    },
  },
};

function errorRef(description: string): Json {
  return { description, content: { 'application/json': { schema: ref('schemas', 'Error') } } };
}

const UNVERSIONED = new Set(['/healthz', '/readyz', '/metrics', '/version']);

function isUnversioned(path: string): boolean {
  return UNVERSIONED.has(path);
}

const RESPONSES: Json = {
  UnsupportedMediaType: {
    description: 'The body is not `application/json` (code `invalid_request`).',
    headers: { 'x-request-id': ref('headers', 'XRequestId') },
    content: { 'application/json': { schema: ref('schemas', 'Error') } },
  },
};

/** Headers and error statuses that hold for every operation (spec: Conventions 1, 6, 7; Errors). */
function declareConventions(operation: Json): void {
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const authenticated = !Array.isArray(operation.security) || operation.security.length > 0;
  if (operation.requestBody && !responses['415']) responses['415'] = ref('responses', 'UnsupportedMediaType');
  for (const [status, response] of Object.entries(responses)) {
    if ('$ref' in response) continue;
    const headers: Json = { ...((response.headers as Json | undefined) ?? {}) };
    headers['x-request-id'] = ref('headers', 'XRequestId');
    if (authenticated || status === '429') {
      headers['x-ratelimit-limit'] = ref('headers', 'RateLimitLimit');
      headers['x-ratelimit-remaining'] = ref('headers', 'RateLimitRemaining');
      headers['x-ratelimit-reset'] = ref('headers', 'RateLimitReset');
    }
    if (status === '429' || status === '503') headers['retry-after'] = ref('headers', 'RetryAfter');
    response.headers = headers;
  }
  operation.responses = responses;
}

/** The named schemas with the reference's examples of them (src/docs/response-examples.ts). */
function withExamples(schemas: Json): Json {
  for (const [name, example] of Object.entries(RESPONSE_EXAMPLES)) {
    const schema = schemas[name] as Json | undefined;
    if (schema) schemas[name] = { ...schema, examples: [example] };
  }
  return schemas;
}

/**
 * The reference's sections in the order a user meets them (src/docs/tags.ts), not in route order; a section no
 * operation has yet (e.g. E-invoices before its routes exist) is left out rather than shown empty.
 */
function sectionsInUse(paths: Record<string, Json>): Json[] {
  const used = new Set<unknown>();
  for (const item of Object.values(paths))
    for (const method of HTTP_METHODS)
      for (const tag of ((item[method] as Json | undefined)?.tags ?? []) as unknown[]) used.add(tag);
  return TAG_ORDER.filter((tag) => used.has(tag.name)).map((tag) => ({ ...tag }));
}

/**
 * Within each section, the operations called with a key first and the signed links (no key: files, thumbnails)
 * after them: a reader starts with creating and reading, not with a thumbnail URL.
 */
function signedLinksLast(paths: Record<string, Json>): Record<string, Json> {
  const signedLink = ([path, item]: [string, Json]) => {
    const security = (item.get as Json | undefined)?.security;
    return path.includes('{') && Array.isArray(security) && security.length === 0;
  };
  const entries = Object.entries(paths);
  return Object.fromEntries([
    ...entries.filter((entry) => !signedLink(entry)),
    ...entries.filter((entry) => signedLink(entry)),
  ]);
}

const ERROR_CODE_MENTION = /`([a-z_]+)`/g;

/**
 * What the reference adds to each operation: the error codes a description names (in backticks) become links
 * to their row of /docs/errors, and the curl and client samples (`x-codeSamples`).
 */
function finishReference(method: string, path: string, operation: Json): void {
  if (typeof operation.description === 'string') {
    operation.description = operation.description.replace(ERROR_CODE_MENTION, (mention, code: string) =>
      code in ERROR_CODES ? `[\`${code}\`](/docs/errors#${code})` : mention,
    );
  }
  const samples = codeSamples(method, path, !isUnversioned(path), operation);
  if (samples.length > 0) operation['x-codeSamples'] = samples;
}

/**
 * A query parameter with a default (`limit`, `offset`) may be left out: @fastify/swagger marks it required
 * because the schema always has it after defaults are applied, which would make generated clients send it.
 */
function optionalWhenDefaulted(operation: Json): void {
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    const schema = parameter.schema as Json | undefined;
    if (parameter.in === 'query' && schema?.default !== undefined) delete parameter.required;
  }
}

/**
 * Replaces every schema carrying the component keyword by a `$ref`, innermost first, and collects the
 * named schemas. A name used for two different shapes stays inline at the second use (the unit test
 * of the document fails on that).
 */
function hoistNamed(node: unknown, schemas: Json): unknown {
  if (Array.isArray(node)) return node.map((child) => hoistNamed(child, schemas));
  if (node === null || typeof node !== 'object') return node;
  const documented = (node as Json)[DOCUMENTED_AS_KEY];
  if (typeof documented === 'string') return ref('schemas', documented);
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = hoistNamed(value, schemas);
  const name = out[COMPONENT_KEY];
  if (typeof name !== 'string') return out;
  delete out[COMPONENT_KEY];
  const existing = schemas[name];
  if (existing !== undefined && !isDeepStrictEqual(existing, out)) return out;
  schemas[name] = out;
  return ref('schemas', name);
}

function sortKeys(object: Json): Json {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
}
